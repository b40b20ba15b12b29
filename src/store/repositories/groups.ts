/** Groups: the project's tree. */
import { sql } from 'kysely';
import { byTechnicalName } from '../dialect.js';
import type { Db, EntryRow, GroupRow, TranslationRow } from '../schema.js';
import { prepared } from '../prepared.js';

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
  const [row] = (await nameTakenQuery(db, projectId, parentId, technicalName, except ?? '')).rows;
  return Number(row?.taken ?? 0) === 1;
}

/**
 * Every way a name can be taken, in one statement (every create and rename runs it under the
 * project's lock: on PostgreSQL each statement there is a round trip every other write of the project
 * waits for): a sibling group; at the top level, an entry of the top-level keys' group; under a group,
 * one of its entries, and for the keys' group a top-level group. `except` ('' for none) is the renamed
 * group or entry itself. The sibling lookup is the sibling-name index's own expression.
 */
const nameTakenQuery = prepared(4, (_db, projectId: string, parentId: string | null, technicalName: string, except: string) =>
  sql<{ taken: number | boolean }>`select case when ${nameTaken(projectId, parentId, technicalName, except)} then 1 else 0 end as taken`,
);

/** The condition of nameTakenQuery, for a statement that checks a name and writes with it at once (content-writes/postgres-writes.ts). */
export function nameTaken(projectId: string, parentId: string | null, technicalName: string, except: string) {
  const parent = sql`cast(${parentId} as text)`;
  return sql<boolean>`(
      exists (select 1 from groups g where g.project_id = ${projectId} and coalesce(g.parent_id, '') = coalesce(${parent}, '')
        and g.technical_name = ${technicalName} and g.id <> ${except})
      or (${parent} is null and exists (select 1 from entries e join groups g on g.id = e.group_id
        where g.project_id = ${projectId} and g.parent_id is null and g.technical_name = '' and e.technical_name = ${technicalName}))
      or exists (select 1 from entries e where e.group_id = ${parent} and e.technical_name = ${technicalName} and e.id <> ${except})
      or exists (select 1 from groups g where g.project_id = ${projectId} and coalesce(g.parent_id, '') = '' and g.technical_name = ${technicalName}
        and exists (select 1 from groups r where r.id = ${parent} and r.parent_id is null and r.technical_name = '')))`;
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

/** Every row of the group's subtree (the group, its sub-groups at any depth, their entries and translations): a delete's record. */
export async function readGroupSubtree(db: Db, groupId: string): Promise<{ groups: GroupRow[]; entries: EntryRow[]; translations: TranslationRow[] }> {
  const tree = sql`with recursive tree(id) as (
      select id from groups where id = ${groupId}
      union all
      select g.id from groups g join tree on g.parent_id = tree.id
    )`;
  const groups = (await sql<GroupRow>`${tree} select g.* from groups g join tree on tree.id = g.id`.execute(db)).rows;
  const entries = (await sql<EntryRow>`${tree} select e.* from entries e join tree on tree.id = e.group_id`.execute(db)).rows;
  const translations = (await sql<TranslationRow>`${tree} select t.* from translations t join entries e on e.id = t.entry_id join tree on tree.id = e.group_id`.execute(db)).rows;
  return { groups, entries, translations };
}
