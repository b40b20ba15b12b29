/** Projects, with their owner's names joined in. */
import type { KeyStyle } from '../../names/technical-names.js';
import { sql } from 'kysely';
import type { Db, ProjectsTable } from '../schema.js';
import { prepared } from '../prepared.js';

const PROJECT_COLUMNS = [
  'projects.id',
  'projects.owner_id',
  'projects.name',
  'projects.base_language',
  'projects.translation_languages',
  'projects.content_version',
  'projects.key_style',
  'projects.created_at',
  'projects.updated_at',
  'users.first_name as owner_first_name',
  'users.last_name as owner_last_name',
  'users.member_limit as owner_member_limit',
] as const;

export interface ProjectRecord {
  id: string;
  ownerId: string;
  ownerFirstName: string;
  ownerLastName: string;
  /** the owner's member limit: confirmed members beyond it are over the limit */
  ownerMemberLimit: number;
  name: string;
  baseLanguage: string;
  translationLanguages: string[];
  contentVersion: number;
  keyStyle: KeyStyle;
  createdAt: string;
  /** when the content last changed (with contentVersion) */
  updatedAt: string;
}

type JoinedRow = Pick<ProjectsTable, 'id' | 'owner_id' | 'name' | 'base_language' | 'translation_languages' | 'key_style' | 'created_at' | 'updated_at'> & {
  content_version: number | string;
  owner_first_name: string;
  owner_last_name: string;
  owner_member_limit: number | string;
};

function toRecord(row: JoinedRow): ProjectRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    ownerFirstName: row.owner_first_name,
    ownerLastName: row.owner_last_name,
    ownerMemberLimit: Number(row.owner_member_limit),
    name: row.name,
    baseLanguage: row.base_language,
    translationLanguages: JSON.parse(row.translation_languages) as string[],
    contentVersion: Number(row.content_version),
    keyStyle: row.key_style === 'free' ? 'free' : 'camelCase',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface ProjectWithMembership extends ProjectRecord {
  /** the caller's member row, when the caller is a member (pending or confirmed) */
  memberRole: string | null;
  memberConfirmedAt: string | null;
}

/** A project with the user's membership and, for a confirmed member, how many were confirmed before them. */
export interface ProjectForUser extends ProjectWithMembership {
  acceptedBefore: number;
}

export type ProjectForUserRow = JoinedRow & { member_role: string | null; member_confirmed_at: string | null; accepted_before: number | string };

/**
 * The columns of findProjectForUser for raw SQL over `projects p`, `users ow` (the owner) and
 * `project_members m` (the user's membership): PROJECT_COLUMNS, respelled.
 */
const PROJECT_FOR_USER_COLUMNS = sql.raw(
  [...PROJECT_COLUMNS.map((column) => column.replace(/^projects\./, 'p.').replace(/^users\./, 'ow.')), 'm.role as member_role', 'm.confirmed_at as member_confirmed_at'].join(', '),
);

/**
 * findProjectForUser and acceptedBefore as one SELECT for raw SQL: the project `projectId` as `userId`
 * sees it, with the number of members who accepted before the user (accepted_before).
 */
export const projectForUserSelect = (userId: unknown, projectId: unknown) => sql`
  select ${PROJECT_FOR_USER_COLUMNS},
    (select count(*) from project_members o where o.project_id = p.id and o.confirmed_at is not null
      and (o.confirmed_at < m.confirmed_at or (o.confirmed_at = m.confirmed_at and o.user_id < m.user_id))) as accepted_before
  from projects p join users ow on ow.id = p.owner_id
  left join project_members m on m.project_id = p.id and m.user_id = ${userId}
  where p.id = ${projectId}`;

/** The names of projectForUserSelect's columns. */
const PROJECT_FOR_USER_NAMES = [...PROJECT_COLUMNS.map((column) => column.split(/ as |\./).pop()!), 'member_role', 'member_confirmed_at', 'accepted_before'];

/**
 * projectForUserSelect's row as one JSON text, on SQLite (which has no row_to_json): so that a write's
 * read carries its access check along, as on PostgreSQL (content-writes/sqlite-writes.ts). Read back
 * with projectForUserOf(JSON.parse(…)); null when there is no such project.
 */
export const projectForUserJson = (userId: unknown, projectId: unknown) =>
  sql<string | null>`(select json_object(${sql.join(PROJECT_FOR_USER_NAMES.map((name) => sql`${sql.lit(name)}, target.${sql.ref(name)}`))})
    from (${projectForUserSelect(userId, projectId)}) target)`;

export function projectForUserOf(row: ProjectForUserRow): ProjectForUser {
  return { ...toRecord(row), memberRole: row.member_role ?? null, memberConfirmedAt: row.member_confirmed_at ?? null, acceptedBefore: Number(row.accepted_before) };
}

// Every request about a project starts with this (the access check): compiled once.
const projectForUserQuery = prepared(2, (db, userId: string, projectId: string) =>
  db
    .selectFrom('projects')
    .innerJoin('users', 'users.id', 'projects.owner_id')
    .leftJoin('project_members as m', (join) => join.onRef('m.project_id', '=', 'projects.id').on('m.user_id', '=', userId))
    .select([...PROJECT_COLUMNS, 'm.role as member_role', 'm.confirmed_at as member_confirmed_at'])
    .where('projects.id', '=', projectId),
  { keptUntilWrite: true },
);

/** The project and the given user's membership in it, if the project exists. */
export async function findProjectForUser(db: Db, projectId: string, userId: string): Promise<ProjectWithMembership | undefined> {
  const [row] = (await projectForUserQuery(db, userId, projectId)).rows;
  if (!row) return undefined;
  return { ...toRecord(row), memberRole: row.member_role ?? null, memberConfirmedAt: row.member_confirmed_at ?? null };
}

/** A page of the projects a user owns or is a confirmed member of, oldest first. */
export async function listProjectsForUser(db: Db, userId: string, limit: number, offset: number) {
  const visible = db
    .selectFrom('projects')
    .innerJoin('users', 'users.id', 'projects.owner_id')
    .where((eb) =>
      eb.or([
        eb('projects.owner_id', '=', userId),
        eb.exists(
          eb
            .selectFrom('project_members as m')
            .select('m.user_id')
            .whereRef('m.project_id', '=', 'projects.id')
            .where('m.user_id', '=', userId)
            .where('m.confirmed_at', 'is not', null),
        ),
      ]),
    );
  const [rows, count] = await Promise.all([
    visible.select(PROJECT_COLUMNS).orderBy('projects.created_at').orderBy('projects.id').limit(limit).offset(offset).execute(),
    visible.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRecord), total: Number(count.total) };
}

/** Inserts a project. */
export async function insertProject(
  db: Db,
  project: { id: string; ownerId: string; name: string; baseLanguage: string; translationLanguages: string[]; keyStyle: KeyStyle; now: string },
): Promise<void> {
  await db
    .insertInto('projects')
    .values({
      id: project.id,
      owner_id: project.ownerId,
      name: project.name,
      base_language: project.baseLanguage,
      translation_languages: JSON.stringify(project.translationLanguages),
      content_version: 1,
      key_style: project.keyStyle,
      created_at: project.now,
      updated_at: project.now,
    })
    .execute();
}

/** The project by id (no access check). */
export async function findProjectById(db: Db, projectId: string): Promise<ProjectRecord | undefined> {
  const row = await db
    .selectFrom('projects')
    .innerJoin('users', 'users.id', 'projects.owner_id')
    .select(PROJECT_COLUMNS)
    .where('projects.id', '=', projectId)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** Applies the given changes to a project. */
export async function updateProject(
  db: Db,
  projectId: string,
  changes: { name?: string; baseLanguage?: string; translationLanguages?: string[]; keyStyle?: KeyStyle },
): Promise<void> {
  const set: Partial<Record<'name' | 'base_language' | 'translation_languages' | 'key_style', string>> = {};
  if (changes.keyStyle !== undefined) set.key_style = changes.keyStyle;
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.baseLanguage !== undefined) set.base_language = changes.baseLanguage;
  if (changes.translationLanguages !== undefined) set.translation_languages = JSON.stringify(changes.translationLanguages);
  if (Object.keys(set).length === 0) return;
  await db.updateTable('projects').set(set).where('id', '=', projectId).execute();
}

/** Deletes a project; groups, entries, translations and members go with it (foreign-key cascades). */
export async function deleteProject(db: Db, projectId: string): Promise<void> {
  await db.deleteFrom('projects').where('id', '=', projectId).execute();
}

/** Hands the project to another user. */
export async function setProjectOwner(db: Db, projectId: string, ownerId: string): Promise<void> {
  await db.updateTable('projects').set({ owner_id: ownerId }).where('id', '=', projectId).execute();
}
