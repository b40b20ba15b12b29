/** Groups: the project's tree. */
import { sql } from 'kysely';
import { byTechnicalName } from '../dialect.js';
import type { Db, GroupRow } from '../schema.js';
import { prepared } from '../prepared.js';

/** Inserts a group. */
export async function insertGroup(db: Db, group: GroupRow): Promise<void> {
  await db.insertInto('groups').values(group).execute();
}

/** The group by id, if any. */
export async function findGroup(db: Db, groupId: string): Promise<GroupRow | undefined> {
  const [row] = (await groupQuery(db, groupId)).rows;
  return row;
}

const groupQuery = prepared(1, (db, groupId: string) => db.selectFrom('groups').selectAll().where('id', '=', groupId));

/** A page of the direct children of `parentId` (top-level groups when null), by technical name. */
export async function listChildGroups(db: Db, projectId: string, parentId: string | null, limit: number, offset: number) {
  const scope = db
    .selectFrom('groups')
    .where('project_id', '=', projectId)
    .where('parent_id', parentId === null ? 'is' : '=', parentId);
  const [rows, count] = await Promise.all([
    scope.selectAll().orderBy(byTechnicalName(db)).orderBy('id').limit(limit).offset(offset).execute(),
    scope.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Every group of a project (the tree is small next to its entries; callers walk it in memory). */
export async function listProjectGroups(db: Db, projectId: string): Promise<GroupRow[]> {
  return db.selectFrom('groups').selectAll().where('project_id', '=', projectId).orderBy(byTechnicalName(db)).orderBy('id').execute();
}

/** Ids of the group's ancestors, root first, excluding the group itself. */
export async function ancestorIds(db: Db, groupId: string): Promise<string[]> {
  const result = await sql<{ id: string; level: number | string }>`
    with recursive chain(id, parent_id, level) as (
      select id, parent_id, 0 from groups where id = ${groupId}
      union all
      select g.id, g.parent_id, chain.level + 1 from groups g join chain on g.id = chain.parent_id
    )
    select id, level from chain where level > 0 order by level desc`.execute(db);
  return result.rows.map((row) => row.id);
}

/** Height of the subtree rooted at the group: 1 for a group without children. */
export async function subtreeHeight(db: Db, groupId: string): Promise<number> {
  const result = await sql<{ height: number | string }>`
    with recursive tree(id, level) as (
      select id, 1 from groups where id = ${groupId}
      union all
      select g.id, tree.level + 1 from groups g join tree on g.parent_id = tree.id
    )
    select max(level) as height from tree`.execute(db);
  return Number(result.rows[0]?.height ?? 0);
}

/**
 * Whether a group or an entry already uses `technicalName` directly under the parent (one name
 * space per parent: both would become the same key in the nested and dotted exports). The entries
 * of the top-level keys' group (empty name) share the top level's name space with the top-level groups.
 */
export async function nameTakenUnderParent(
  db: Db,
  projectId: string,
  parentId: string | null,
  technicalName: string,
  except?: string,
): Promise<boolean> {
  let groups = db
    .selectFrom('groups')
    .select('id')
    .where('project_id', '=', projectId)
    .where('parent_id', parentId === null ? 'is' : '=', parentId)
    .where('technical_name', '=', technicalName);
  if (except) groups = groups.where('id', '<>', except);
  if (await groups.executeTakeFirst()) return true;
  if (parentId === null) {
    const topLevelEntry = await db
      .selectFrom('entries as e')
      .innerJoin('groups as g', 'g.id', 'e.group_id')
      .select('e.id')
      .where('g.project_id', '=', projectId)
      .where('g.parent_id', 'is', null)
      .where('g.technical_name', '=', '')
      .where('e.technical_name', '=', technicalName)
      .executeTakeFirst();
    return topLevelEntry !== undefined;
  }
  let entries = db.selectFrom('entries').select('id').where('group_id', '=', parentId).where('technical_name', '=', technicalName);
  if (except) entries = entries.where('id', '<>', except);
  if ((await entries.executeTakeFirst()) !== undefined) return true;
  // An entry of the top-level keys' group shares the name space of the top-level groups.
  const topLevelGroup = await db
    .selectFrom('groups as g')
    .select('g.id')
    .where('g.project_id', '=', projectId)
    .where('g.parent_id', 'is', null)
    .where('g.technical_name', '=', technicalName)
    .where((eb) => eb.exists(eb.selectFrom('groups as r').select('r.id').where('r.id', '=', parentId).where('r.parent_id', 'is', null).where('r.technical_name', '=', '')))
    .executeTakeFirst();
  return topLevelGroup !== undefined;
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

/** Every group and entry name of a project (for a change of its key style). */
export async function listProjectNames(db: Db, projectId: string): Promise<{ kind: 'group' | 'entry'; name: string }[]> {
  const [groupNames, entryNames] = await Promise.all([
    db.selectFrom('groups').select('technical_name').where('project_id', '=', projectId).execute(),
    db.selectFrom('entries').select('technical_name').where('project_id', '=', projectId).execute(),
  ]);
  return [
    ...groupNames.map((row) => ({ kind: 'group' as const, name: row.technical_name })),
    ...entryNames.map((row) => ({ kind: 'entry' as const, name: row.technical_name })),
  ];
}
