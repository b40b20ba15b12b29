/**
 * Pruning the change log (HISTORY_RETENTION_DAYS, CONTRACT "History: Retention"): changes of sets
 * made before the cutoff go, except each object's newest change (so "last changed by" and a one-step
 * undo survive; a bundle of an import's translations goes when each of them has a later change);
 * a set left without changes goes too, as does a set holding its one change (migration 014)
 * with it. In batches, so no statement holds locks long.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../schema.js';
import { bundleLanguages, holdsLanguage } from './change-bundles.js';
import { mapAllChangeObjects } from './change-objects.js';

/** Rows deleted per statement. */
const BATCH = 5_000;

// The same object as `c`'s change (not a translation's), in `n` (a row of `changes`, or a set holding its one change: migration 014).
const SAME_OTHER_OBJECT = sql`n.project_id = c.project_id and n.target = c.target and (
    (c.target = 'entry' and n.entry_id = c.entry_id)
    or (c.target = 'group' and n.group_id = c.group_id)
    or c.target = 'project')`;

/**
 * The sets holding one change of `object` (an entry's or a group's id) after `c`'s, as `n`: through
 * change_objects, since every set is mapped before a prune (mapAllChangeObjects); one written since is
 * not seen, and the change it follows is then kept until the next prune.
 */
const laterHeldSetsOf = (object: RawBuilder<unknown>) =>
  sql`change_objects o join change_sets n on n.project_id = o.project_id and n.version = o.version
    where o.object_id = ${object} and o.version > c.version`;

/**
 * Whether a later change of `c`'s object is logged, in either place (`c` a row of `changes` when
 * `cIsRow`, else a set holding one). A translation's may be in a bundle (migration 015); a bundle is
 * `c` only when each of its languages has a later change.
 */
function laterChangeOfSameObject(db: Db, cIsRow: boolean): RawBuilder<unknown> {
  const laterRow = sql`(n.version > c.version${cIsRow ? sql` or (n.version = c.version and n.id > c.id)` : sql``})`;
  const laterOfTranslation = (language: RawBuilder<unknown>) => sql`(
      exists (select 1 from changes n where n.project_id = c.project_id and n.target = 'translation' and n.entry_id = c.entry_id
        and ${holdsLanguage(db, 'n', language)} and ${laterRow})
      or exists (select 1 from ${laterHeldSetsOf(sql.ref('c.entry_id'))} and n.target = 'translation' and n.entry_id = c.entry_id and n.language = ${language}))`;
  const other = sql`c.target <> 'translation' and (
      exists (select 1 from changes n where ${SAME_OTHER_OBJECT} and ${laterRow})
      or (c.target = 'entry' and exists (select 1 from ${laterHeldSetsOf(sql.ref('c.entry_id'))} and n.target = 'entry' and n.entry_id = c.entry_id))
      or (c.target = 'group' and exists (select 1 from ${laterHeldSetsOf(sql.ref('c.group_id'))} and n.target = 'group' and n.group_id = c.group_id))
      or (c.target = 'project' and exists (select 1 from change_sets n where n.project_id = c.project_id and n.version > c.version and n.target = 'project')))`;
  const translation = sql`c.target = 'translation' and c.language is not null and ${laterOfTranslation(sql.ref('c.language'))}`;
  if (!cIsRow) return sql`((${other}) or (${translation}))`;
  const bundle = sql`c.bundled is not null and not exists (select 1 from ${bundleLanguages(db, 'c')} where not ${laterOfTranslation(sql.ref('bundle_language.key'))})`;
  return sql`((${other}) or (${translation}) or (${bundle}))`;
}

/**
 * How many prunes of this store, in this process, took something away: kept history pages include it
 * in their key (domain/changes/read-history.ts), since a prune moves no content version. Another
 * instance's prune is seen at the next write, or at this instance's own prune, within the hour.
 */
const prunes = new WeakMap<object, number>();

export const pruneGeneration = (db: Db): number => prunes.get(db) ?? 0;

/** Deletes what is older than `cutoff` (ISO time) and not an object's newest change; answers how many changes went. */
export async function pruneChangesBefore(db: Db, cutoff: string): Promise<number> {
  const pruned = await prune(db, cutoff);
  if (pruned > 0) prunes.set(db, pruneGeneration(db) + 1);
  return pruned;
}

async function prune(db: Db, cutoff: string): Promise<number> {
  await mapAllChangeObjects(db);
  // A bundle (migration 015) is as many changes as it holds.
  const rows = await deleteInBatches(db, sql`delete from changes where id in (
      select c.id from changes c join change_sets s on s.id = c.change_set_id
      where s.created_at < ${cutoff} and ${laterChangeOfSameObject(db, true)}
      limit ${BATCH}
    ) returning coalesce(bundled, 1) as changes`);
  // A set holding its one change goes with it, and its entry's and group's rows of change_objects.
  const held = await deleteInBatches(
    db,
    sql`delete from change_sets where id in (
      select c.id from change_sets c where c.target is not null and c.created_at < ${cutoff} and ${laterChangeOfSameObject(db, false)}
      limit ${BATCH}
    ) returning 1 as changes, entry_id, group_id, version`,
    (rows) => unmap(db, rows as { entry_id: string | null; group_id: string | null; version: number | string }[]),
  );
  await sql`delete from change_sets where created_at < ${cutoff} and target is null
    and not exists (select 1 from changes where changes.project_id = change_sets.project_id and changes.version = change_sets.version)`.execute(db);
  return rows + held;
}

/** Runs a delete of at most BATCH rows, each answering how many changes it was, until it deletes fewer; answers how many changes went in all. */
async function deleteInBatches(db: Db, statement: RawBuilder<unknown>, afterBatch?: (rows: unknown[]) => Promise<void>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rows } = await statement.execute(db);
    for (const row of rows as { changes: number | string }[]) deleted += Number(row.changes);
    await afterBatch?.(rows);
    if (rows.length < BATCH) return deleted;
  }
}

/** Deletes the change_objects rows of deleted sets holding one change. */
async function unmap(db: Db, sets: { entry_id: string | null; group_id: string | null; version: number | string }[]): Promise<void> {
  const keys = sets.flatMap((set) => [set.entry_id, set.group_id].filter((id) => id !== null).map((id) => sql`(${id}, cast(${Number(set.version)} as integer))`));
  for (let start = 0; start < keys.length; start += BATCH) {
    await sql`delete from change_objects where (object_id, version) in (values ${sql.join(keys.slice(start, start + BATCH))})`.execute(db);
  }
}
