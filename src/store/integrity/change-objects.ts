/**
 * Where a set holding one change is found by entry and by group (migration 017,
 * content-writes/change-objects.ts): every such set up to its project's log_mapped_version has a row of
 * change_objects for its entry and one for its group, and every row is one of those: a set missing one
 * is gone from that entry's or group's history; a row past the version would be read twice.
 */
import { sql } from 'kysely';
import type { ObjectColumn } from '../content-writes/change-objects.js';
import type { Db } from '../schema.js';
import { problem, type IntegrityProblem } from './problem.js';

/** The most rows one check lists: enough to find the pattern, bounded for a badly broken store. */
const LISTED = 100;

export async function changeObjectProblems(db: Db): Promise<IntegrityProblem[]> {
  const unmapped = (column: ObjectColumn, what: string) => sql`
    select cs.project_id, cs.version, ${`is not mapped under its ${what} `} || cs.${sql.ref(column)} as fault
    from change_sets cs join projects p on p.id = cs.project_id
    where cs.target is not null and cs.version <= p.log_mapped_version and cs.${sql.ref(column)} is not null
      and not exists (select 1 from change_objects o where o.object_id = cs.${sql.ref(column)} and o.version = cs.version)`;
  const { rows } = await sql<{ project_id: string; version: number | string; fault: string }>`
    ${unmapped('entry_id', 'entry')}
    union all ${unmapped('group_id', 'group')}
    union all select o.project_id, o.version, 'maps ' || o.object_id || ' past the project''s mapped version ' || p.log_mapped_version as fault
    from change_objects o join projects p on p.id = o.project_id
    where o.version > p.log_mapped_version
    union all select o.project_id, o.version, 'maps ' || o.object_id || ' to no set holding a change of it' as fault
    from change_objects o join projects p on p.id = o.project_id
    where o.version <= p.log_mapped_version and not exists (select 1 from change_sets cs where cs.project_id = o.project_id and cs.version = o.version
      and cs.target is not null and (cs.entry_id = o.object_id or cs.group_id = o.object_id))
    limit ${LISTED}`.execute(db);
  return rows.map((row) => problem('change-log-mapping', `project ${row.project_id}: the change set at version ${Number(row.version)} ${row.fault}`));
}
