/**
 * The missing-translation rows must be exactly the (entry, translation language of its project)
 * pairs without a translation, with the entry's project and created_at: the untranslated list and
 * its total are read from them alone. A language whose rows are still being written after it was
 * added (not in complete_missing_languages) may lack some, never have a wrong one; rows of a language
 * just removed are deleted in steps, so a doctor run during a language change may report those.
 */
import { sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import type { Db } from '../schema.js';
import { problem, type IntegrityProblem } from './problem.js';

interface PairRow {
  entry_id: string;
  language: string;
}

export async function missingTranslationProblems(db: Db): Promise<IntegrityProblem[]> {
  const languages = isPostgres(db)
    ? sql`json_array_elements_text(p.translation_languages::json) as l(value)`
    : sql`json_each(p.translation_languages) as l`;
  const unrecorded = await sql<PairRow>`
    select e.id as entry_id, l.value as language
    from projects p cross join ${languages} join entries e on e.project_id = p.id
    where not exists (select 1 from translations t where t.entry_id = e.id and t.language = l.value)
      and not exists (select 1 from missing_translations m where m.entry_id = e.id and m.language = l.value)
      and exists (select 1 from complete_missing_languages c where c.project_id = p.id and c.language = l.value)`.execute(db);
  const wrong = await sql<PairRow & { reason: string }>`
    select m.entry_id, m.language,
      case when e.id is null then 'its entry is missing'
           when t.id is not null then 'it has a translation'
           when m.project_id <> e.project_id or m.created_at <> e.created_at then 'its project or created_at differs from the entry''s'
           else 'the language is not one of the project''s translation languages' end as reason
    from missing_translations m
    left join entries e on e.id = m.entry_id
    left join projects p on p.id = e.project_id
    left join translations t on t.entry_id = m.entry_id and t.language = m.language
    where e.id is null or t.id is not null or m.project_id <> e.project_id or m.created_at <> e.created_at
      or not exists (select 1 from ${languages} where l.value = m.language)`.execute(db);
  return [
    ...unrecorded.rows.map((row) => problem('missing-translations', `entry ${row.entry_id} has no ${row.language} translation, but no missing-translation row says so`)),
    ...wrong.rows.map((row) => problem('missing-translations', `the missing-translation row (${row.entry_id}, ${row.language}) is wrong: ${row.reason}`)),
  ];
}
