/** A group's own rows: create, rename or move, delete (its subtree goes by the foreign keys' cascades). */
import type { Db, GroupRow } from '../schema.js';

/** Inserts a group. */
export async function insertGroup(db: Db, group: GroupRow): Promise<void> {
  await db.insertInto('groups').values(group).execute();
}

/** Applies the given changes to a group. */
export async function updateGroup(
  db: Db,
  groupId: string,
  changes: Partial<Pick<GroupRow, 'technical_name' | 'display_name' | 'parent_id'>>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('groups').set(changes).where('id', '=', groupId).execute();
}

/** Deletes a group; sub-groups, entries and translations go with it (foreign-key cascades). */
export async function deleteGroup(db: Db, groupId: string): Promise<void> {
  await db.deleteFrom('groups').where('id', '=', groupId).execute();
}
