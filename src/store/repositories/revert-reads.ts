/** What a revert reads: the changes it undoes, who last changed each object, and what was added under an object since. */
import type { ChangeSetsTable, ChangesTable, Db, EntryRow, TranslationRow } from '../schema.js';
import { sql, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import { changesOfRow, holdsLanguage, parseChangeId } from '../content-writes/change-bundles.js';
import { heldSetsOf } from '../content-writes/change-objects.js';
import { inLists } from '../id-lists.js';

export type ChangeSetRow = Selectable<ChangeSetsTable>;
export type ChangeRow = Omit<Selectable<ChangesTable>, 'id'> & { id: string };

/** A row of `changes` as its changes: itself, or each change of a bundle (migration 015). */
const changesOf = (row: Selectable<ChangesTable>): ChangeRow[] => changesOfRow({ ...row, id: String(row.id) });

/** The one change a set holds in its own row (migration 014), as a change: its id is the set's. */
const heldChange = (set: ChangeSetRow): ChangeRow => ({
  id: set.id,
  change_set_id: set.id,
  project_id: set.project_id,
  version: set.version,
  target: set.target!,
  op: set.op!,
  group_id: set.group_id,
  entry_id: set.entry_id,
  language: set.language,
  key: set.key,
  before_json: set.before_json,
  after_json: set.after_json,
  bundled: null,
});

export async function findChangeSet(db: Db, setId: string): Promise<ChangeSetRow | undefined> {
  return db.selectFrom('change_sets').selectAll().where('id', '=', setId).executeTakeFirst();
}

/** A change: a row of `changes` (a decimal id), one language of a bundle (`<row id>.<language>`), or the one a set holds (the set's id). */
export async function findChange(db: Db, changeId: string): Promise<ChangeRow | undefined> {
  const id = parseChangeId(changeId);
  if (id === null) {
    const set = await db.selectFrom('change_sets').selectAll().where('id', '=', changeId).where('target', 'is not', null).executeTakeFirst();
    return set && heldChange(set);
  }
  const row = await db.selectFrom('changes').selectAll().where('id', '=', id.rowId).executeTakeFirst();
  // A bundle's own id names none of its changes; a row's id with a language names no change either.
  return row && changesOf(row).find((change) => change.id === changeId);
}

/** The set's changes in the order they were made: the one it holds, or its rows of `changes` (a set is its project's version). */
export async function listChangesOfSet(db: Db, set: ChangeSetRow): Promise<ChangeRow[]> {
  if (set.target !== null) return [heldChange(set)];
  return (await db.selectFrom('changes').selectAll().where('project_id', '=', set.project_id).where('version', '=', set.version).orderBy('id').execute()).flatMap(changesOf);
}

/** The create changes of the sets that reverted `setId` (or one of its changes): what they brought back. */
export async function listRestoringCreates(db: Db, setId: string): Promise<ChangeRow[]> {
  const rows = await db
    .selectFrom('changes')
    .innerJoin('change_sets', (join) => join.onRef('change_sets.project_id', '=', 'changes.project_id').onRef('change_sets.version', '=', 'changes.version'))
    .selectAll('changes')
    .where('change_sets.revert_of', '=', setId)
    .where('changes.op', '=', 'create')
    .orderBy('changes.id')
    .execute();
  const held = await db.selectFrom('change_sets').selectAll().where('revert_of', '=', setId).where('op', '=', 'create').execute();
  // in the order they were made (a later restore of a key is the one that stands); one version is one set's, held or in rows
  return [...rows.flatMap(changesOf), ...held.map(heldChange)].sort((a, b) => Number(a.version) - Number(b.version) || parseFloat(a.id) - parseFloat(b.id) || 0);
}

/** An object of the log: a translation (entry and language), an entry, a group, or the project; of its project. */
export type LoggedObject = { projectId: string } & (
  | { target: 'translation'; entryId: string; language: string }
  | { target: 'entry'; entryId: string }
  | { target: 'group'; groupId: string }
  | { target: 'project' }
);

/** The object's changes, on a table with a change's columns (`changes`, whose bundles hold translations' changes too, or the sets holding one). */
function isChangeOf(db: Db, object: LoggedObject, table: 'changes' | 'change_sets'): RawBuilder<SqlBool> {
  switch (object.target) {
    case 'translation': {
      const inLanguage = table === 'changes' ? holdsLanguage(db, 'changes', object.language) : sql`language = ${object.language}`;
      return sql<SqlBool>`target = 'translation' and entry_id = ${object.entryId} and ${inLanguage}`;
    }
    case 'entry':
      return sql<SqlBool>`target = 'entry' and entry_id = ${object.entryId}`;
    case 'group':
      return sql<SqlBool>`target = 'group' and group_id = ${object.groupId}`;
    case 'project':
      return sql<SqlBool>`target = 'project' and project_id = ${object.projectId}`;
  }
}

/** Who made the object's latest change and when; undefined when the log has none. */
export async function latestChangeOf(db: Db, object: LoggedObject): Promise<{ userId: string; firstName: string; lastName: string; createdAt: string } | undefined> {
  // The newest of the object's rows of `changes`, and the newest set holding a change of it: the later of the two.
  const inRows = await db.selectFrom('changes').select(['change_set_id as setId', 'version']).where(isChangeOf(db, object, 'changes')).orderBy('version', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  const held = await newestHeldChangeOf(db, object);
  const newest = inRows && (!held || Number(inRows.version) > Number(held.version)) ? inRows : held;
  if (!newest) return undefined;
  const set = await db
    .selectFrom('change_sets')
    .leftJoin('users', 'users.id', 'change_sets.user_id')
    .select(['change_sets.user_id as userId', 'users.first_name as firstName', 'users.last_name as lastName', 'change_sets.created_at as createdAt'])
    .where('change_sets.id', '=', newest.setId)
    .executeTakeFirst();
  return set && { userId: set.userId, firstName: set.firstName ?? '', lastName: set.lastName ?? '', createdAt: set.createdAt };
}

/** The newest set holding a change of the object: for an entry's or a group's, the newest of the mapped sets and those since, in one statement (change-objects.ts). */
async function newestHeldChangeOf(db: Db, object: LoggedObject): Promise<{ setId: string; version: number } | undefined> {
  const sets = db.selectFrom('change_sets as cs').select(['cs.id as setId', 'cs.version']).where(isChangeOf(db, object, 'change_sets'));
  if (object.target === 'project') return sets.where('cs.project_id', '=', object.projectId).orderBy('cs.version', 'desc').limit(1).executeTakeFirst();
  const [mapped, since] = object.target === 'group' ? heldSetsOf(object.projectId, 'group_id', object.groupId) : heldSetsOf(object.projectId, 'entry_id', object.entryId);
  // Each half cut to its newest on its own, so that PostgreSQL never joins all of a large group's sets (history.ts).
  const newest = (half: typeof sets) => db.selectFrom(half.orderBy('cs.version', 'desc').limit(1).as('half')).selectAll();
  return newest(sets.where(mapped)).unionAll(newest(sets.where(since))).orderBy('version', 'desc').limit(1).executeTakeFirst();
}

/** The entries of these ids that still exist. */
export async function entriesByIds(db: Db, ids: readonly string[]): Promise<EntryRow[]> {
  return inLists(ids, (chunk) => db.selectFrom('entries').selectAll().where('id', 'in', chunk).execute());
}

/** Every translation of these entries. */
export async function translationsOfEntries(db: Db, entryIds: readonly string[]): Promise<TranslationRow[]> {
  return inLists(entryIds, (chunk) => db.selectFrom('translations').selectAll().where('entry_id', 'in', chunk).execute());
}

/** The ids of the entries of these groups. */
export async function entryIdsOfGroups(db: Db, groupIds: readonly string[]): Promise<{ id: string; group_id: string }[]> {
  return inLists(groupIds, (chunk) => db.selectFrom('entries').select(['id', 'group_id']).where('group_id', 'in', chunk).execute());
}
