/**
 * Review states the write path cannot leave behind (CONTRACT "Review", migration 016): a state outside
 * the two, a `reviewed` translation whose kept review is not its own text, a kept review missing part
 * of itself (text, reviewer, time, revision), or revisions ahead of their entry's (outdated is
 * `translation.base_revision < entry.base_revision`; a count ahead of the entry's hides an outdated text).
 */
import { sql } from 'kysely';
import type { Db } from '../schema.js';
import { problem, type IntegrityProblem } from './problem.js';

/** The most rows one check lists: enough to find the pattern, bounded for a badly broken store. */
const LISTED = 100;

export async function reviewStateProblems(db: Db): Promise<IntegrityProblem[]> {
  const { rows } = await sql<{ id: string; entry_id: string; language: string; fault: string }>`
    select t.id, t.entry_id, t.language, case
        when t.state not in ('translated', 'reviewed') then 'has the state ' || t.state
        when (t.reviewed_text is null) <> (t.reviewed_by is null) or (t.reviewed_text is null) <> (t.reviewed_at is null)
          or (t.reviewed_text is null) <> (t.reviewed_revision is null) then 'keeps part of a review'
        when t.state = 'reviewed' and (t.reviewed_text is null or t.reviewed_text <> t.translation) then 'is reviewed without a review of its text'
        when t.base_revision < 0 or t.base_revision > e.base_revision or t.reviewed_revision > e.base_revision then 'counts base term revisions ahead of its entry'
      end as fault
    from translations t join entries e on e.id = t.entry_id
    where t.state not in ('translated', 'reviewed')
      or (t.reviewed_text is null) <> (t.reviewed_by is null) or (t.reviewed_text is null) <> (t.reviewed_at is null)
      or (t.reviewed_text is null) <> (t.reviewed_revision is null)
      or (t.state = 'reviewed' and (t.reviewed_text is null or t.reviewed_text <> t.translation))
      or t.base_revision < 0 or t.base_revision > e.base_revision or t.reviewed_revision > e.base_revision
    order by t.id
    limit ${LISTED}`.execute(db);
  return rows.map((row) => problem('review-state', `entry ${row.entry_id}: the ${row.language} translation ${row.fault}`));
}
