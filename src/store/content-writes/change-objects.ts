/**
 * Where a change set holding its one change (migration 014) is found by its entry and by its group
 * (migration 017). Indexing each such set by entry and by group as it was written put two rows on two
 * pages of their own in every save's commit; here they are written in bulk instead, once every
 * MAP_EVERY versions of a project, for the sets since its `log_mapped_version`: sorted, many to a page.
 * The sets after that version are the project's newest, at the end of its own key (project, version),
 * so a reader by entry or group takes the mapped sets and those after it, in one statement: a mapping
 * made between two statements would move sets from one place to the other unseen.
 *
 * Invariant: every set holding one change at a version up to the project's log_mapped_version is
 * mapped, and none after it. The version only rises, in the transaction that maps up to it, and only
 * up to a version whose sets are all written (under the project's lock, in its own write or after it).
 */
import { sql, type ExpressionBuilder, type SqlBool, type Expression } from 'kysely';
import type { Database, Db } from '../schema.js';

/**
 * Versions between two mappings: what a reader by entry or group ranges over past the mapped ones,
 * at most (a few ms), and how many sets one mapping takes (tens of ms, once in so many writes).
 * Measured (bench/log-layouts.mjs, 10,000 entries): the log cost a save 79 µs indexed by entry and group,
 * 31 µs mapped every 1,200 versions, 23 µs every 6,000.
 */
export const MAP_EVERY = 4_096;

/** Maps the project's sets since its last mapping, at the write of every MAP_EVERY-th version (after its own set is written). */
export async function mapChangeObjectsIfDue(db: Db, projectId: string, version: number): Promise<void> {
  if (version % MAP_EVERY === 0) await mapChangeObjects(db, projectId, version);
}

/**
 * Maps the project's sets after its log_mapped_version up to `upTo`, and raises that version to it.
 * The caller holds the project's lock, and every set up to `upTo` is written (committed, or its own).
 */
export async function mapChangeObjects(db: Db, projectId: string, upTo: number): Promise<void> {
  const since = sql`(select log_mapped_version from projects where id = ${projectId})`;
  const held = (column: ObjectColumn) =>
    sql`select ${sql.ref(column)} as object_id, version, project_id from change_sets
      where project_id = ${projectId} and version > ${since} and version <= ${upTo} and target is not null and ${sql.ref(column)} is not null`;
  // In key order, so that each object's rows go in together; `where true`: SQLite would read `on conflict`
  // after a bare select as a join's.
  await sql`insert into change_objects (object_id, version, project_id)
    select * from (${held('entry_id')} union all ${held('group_id')}) mapped where true order by object_id, version
    on conflict do nothing`.execute(db);
  await sql`update projects set log_mapped_version = ${upTo} where id = ${projectId} and log_mapped_version < ${upTo}`.execute(db);
}

/**
 * Maps every project's sets up to its content version, each in a transaction of its own under its
 * lock (the row lock an update takes on PostgreSQL; the one writer on SQLite): retention reads only
 * mapped sets (log-retention.ts).
 */
export async function mapAllChangeObjects(db: Db): Promise<void> {
  const behind = await db.selectFrom('projects').select('id').whereRef('log_mapped_version', '<', 'content_version').execute();
  for (const { id } of behind) {
    await db.transaction().execute(async (trx) => {
      // The lock, and the version every set up to which is committed (a later write waits for it).
      const locked = await trx.updateTable('projects').set({ log_mapped_version: sql`log_mapped_version` }).where('id', '=', id).returning('content_version').executeTakeFirst();
      if (locked) await mapChangeObjects(trx, id, Number(locked.content_version));
    });
  }
}

/** The column of a set holding one change that names the object: an entry's, or a group's. */
export type ObjectColumn = 'entry_id' | 'group_id';

type SetsBuilder = ExpressionBuilder<Database & { cs: Database['change_sets'] }, 'cs'>;

/**
 * The two halves of "the project's sets holding one change of this object" (`cs`), each a condition
 * on the project's own key: the mapped versions, and those since. A reader puts each in an arm of one
 * union (the mapping moves sets from the second to the first).
 */
export function heldSetsOf(projectId: string, column: ObjectColumn, objectId: string): [mapped: (eb: SetsBuilder) => Expression<SqlBool>, since: (eb: SetsBuilder) => Expression<SqlBool>] {
  return [
    (eb) =>
      eb.and([
        eb('cs.project_id', '=', projectId),
        eb('cs.version', 'in', eb.selectFrom('change_objects as o').select('o.version').where('o.object_id', '=', objectId).where('o.project_id', '=', projectId)),
        eb(`cs.${column}`, '=', objectId),
      ]),
    (eb) =>
      eb.and([
        eb('cs.project_id', '=', projectId),
        eb('cs.version', '>', eb.selectFrom('projects as mp').select('mp.log_mapped_version').where('mp.id', '=', projectId)),
        eb(`cs.${column}`, '=', objectId),
      ]),
  ];
}

/**
 * The versions of the object's mapped sets (after `afterVersion`, if given), from the mapping alone: each
 * names a set holding one change of the object (the invariant `tolk doctor` checks).
 */
export function mappedVersionsOf(db: Db, projectId: string, objectId: string, afterVersion?: number) {
  const versions = db.selectFrom('change_objects as o').select('o.version').where('o.object_id', '=', objectId).where('o.project_id', '=', projectId);
  return afterVersion === undefined ? versions : versions.where('o.version', '>', afterVersion);
}
