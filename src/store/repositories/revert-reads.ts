/** What a revert reads: the changes it undoes, who last changed each object, and what was added under an object since. */
import type { ChangeSetsTable, ChangesTable, Db, EntryRow, TranslationRow } from '../schema.js';
import type { Selectable } from 'kysely';

export type ChangeSetRow = Selectable<ChangeSetsTable>;
export type ChangeRow = Omit<Selectable<ChangesTable>, 'id'> & { id: string };

const changeRow = (row: Selectable<ChangesTable>): ChangeRow => ({ ...row, id: String(row.id) });

/** A change id as the API shows it (a decimal string); null when `id` cannot be one. */
const storedChangeId = (id: string): number | null => (/^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : null);

export async function findChangeSet(db: Db, setId: string): Promise<ChangeSetRow | undefined> {
  return db.selectFrom('change_sets').selectAll().where('id', '=', setId).executeTakeFirst();
}

export async function findChange(db: Db, changeId: string): Promise<ChangeRow | undefined> {
  const id = storedChangeId(changeId);
  if (id === null) return undefined;
  const row = await db.selectFrom('changes').selectAll().where('id', '=', id).executeTakeFirst();
  return row && changeRow(row);
}

/** The set's changes in the order they were made (a set is its project's version). */
export async function listChangesOfSet(db: Db, set: Pick<ChangeSetRow, 'project_id' | 'version'>): Promise<ChangeRow[]> {
  return (await db.selectFrom('changes').selectAll().where('project_id', '=', set.project_id).where('version', '=', set.version).orderBy('id').execute()).map(changeRow);
}

/** The create changes of the sets that reverted `setId` (or one of its changes): what they brought back. */
export async function listRestoringCreates(db: Db, setId: string): Promise<ChangeRow[]> {
  return (
    await db
      .selectFrom('changes')
      .innerJoin('change_sets', (join) => join.onRef('change_sets.project_id', '=', 'changes.project_id').onRef('change_sets.version', '=', 'changes.version'))
      .selectAll('changes')
      .where('change_sets.revert_of', '=', setId)
      .where('changes.op', '=', 'create')
      .orderBy('changes.id')
      .execute()
  ).map(changeRow);
}

/** An object of the log: a translation (entry and language), an entry, a group, or the project. */
export type LoggedObject =
  | { target: 'translation'; entryId: string; language: string }
  | { target: 'entry'; entryId: string }
  | { target: 'group'; groupId: string }
  | { target: 'project'; projectId: string };

/** Who made the object's latest change and when; undefined when the log has none. */
export async function latestChangeOf(db: Db, object: LoggedObject): Promise<{ userId: string; firstName: string; lastName: string; createdAt: string } | undefined> {
  let query = db
    .selectFrom('changes')
    .innerJoin('change_sets', 'change_sets.id', 'changes.change_set_id')
    .leftJoin('users', 'users.id', 'change_sets.user_id')
    .select(['change_sets.user_id as userId', 'users.first_name as firstName', 'users.last_name as lastName', 'change_sets.created_at as createdAt'])
    .where('changes.target', '=', object.target);
  switch (object.target) {
    case 'translation':
      query = query.where('changes.entry_id', '=', object.entryId).where('changes.language', '=', object.language);
      break;
    case 'entry':
      query = query.where('changes.entry_id', '=', object.entryId);
      break;
    case 'group':
      query = query.where('changes.group_id', '=', object.groupId);
      break;
    case 'project':
      query = query.where('changes.project_id', '=', object.projectId);
      break;
  }
  const row = await query.orderBy('changes.version', 'desc').orderBy('changes.id', 'desc').limit(1).executeTakeFirst();
  return row && { userId: row.userId, firstName: row.firstName ?? '', lastName: row.lastName ?? '', createdAt: row.createdAt };
}


/** Ids per `in (…)` list: far below both stores' parameter limits. */
const IDS_PER_READ = 1_000;

async function inChunks<T>(ids: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_READ) rows.push(...(await read(ids.slice(start, start + IDS_PER_READ))));
  return rows;
}

/** The entries of these ids that still exist. */
export async function entriesByIds(db: Db, ids: readonly string[]): Promise<EntryRow[]> {
  return inChunks(ids, (chunk) => db.selectFrom('entries').selectAll().where('id', 'in', chunk).execute());
}

/** Every translation of these entries. */
export async function translationsOfEntries(db: Db, entryIds: readonly string[]): Promise<TranslationRow[]> {
  return inChunks(entryIds, (chunk) => db.selectFrom('translations').selectAll().where('entry_id', 'in', chunk).execute());
}

/** The ids of the entries of these groups. */
export async function entryIdsOfGroups(db: Db, groupIds: readonly string[]): Promise<{ id: string; group_id: string }[]> {
  return inChunks(groupIds, (chunk) => db.selectFrom('entries').select(['id', 'group_id']).where('group_id', 'in', chunk).execute());
}
