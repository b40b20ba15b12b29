/** Project members: the confirmed members, in acceptance order (pending invitations: repositories/invitations.ts). */
import { sql } from 'kysely';
import type { Db, MemberRow } from '../schema.js';
import { findProjectForUser, type ProjectForUser } from './projects.js';

/** The owner's member limit and the number of confirmed members (the owner not counted); undefined if the project is gone. */
export async function memberCounts(db: Db, projectId: string): Promise<{ limit: number; confirmed: number } | undefined> {
  const row = await db
    .selectFrom('projects')
    .innerJoin('users', 'users.id', 'projects.owner_id')
    .select((eb) => [
      'users.member_limit as limit',
      eb
        .selectFrom('project_members as m')
        .select(eb.fn.countAll().as('n'))
        .whereRef('m.project_id', '=', 'projects.id')
        .where('m.confirmed_at', 'is not', null)
        .as('confirmed'),
    ])
    .where('projects.id', '=', projectId)
    .executeTakeFirst();
  return row && { limit: Number(row.limit), confirmed: Number(row.confirmed ?? 0) };
}

/**
 * How many confirmed members accepted before this one (ties broken by user id): a member whose
 * count reaches the owner's limit is over it.
 */
export async function acceptedBefore(db: Db, projectId: string, userId: string, confirmedAt: string): Promise<number> {
  const row = await db
    .selectFrom('project_members')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('project_id', '=', projectId)
    .where('confirmed_at', 'is not', null)
    .where((eb) => eb.or([eb('confirmed_at', '<', confirmedAt), eb.and([eb('confirmed_at', '=', confirmedAt), eb('user_id', '<', userId)])]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The project as `userId` sees it, with the user's place among the members who accepted (counted only
 * for a confirmed member: the owner, strangers and invitees have none). The access check's read.
 */
export async function findProjectWithPlace(db: Db, projectId: string, userId: string): Promise<ProjectForUser | undefined> {
  const project = await findProjectForUser(db, projectId, userId);
  if (!project) return undefined;
  const confirmedAt = project.memberConfirmedAt;
  return { ...project, acceptedBefore: confirmedAt === null ? 0 : await acceptedBefore(db, projectId, userId, confirmedAt) };
}

export interface MemberRecord extends MemberRow {
  email: string;
  first_name: string;
  last_name: string;
  /** 1-based place in acceptance order; null while pending */
  acceptance_rank: number | null;
}

const rankedMembers = (db: Db, projectId: string) =>
  db
    .selectFrom('project_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'm.project_id',
      'm.user_id',
      'm.role',
      'm.confirmed_at',
      'm.created_at',
      'u.email',
      'u.first_name',
      'u.last_name',
      sql<number | null>`case when m.confirmed_at is null then null else row_number() over (partition by m.confirmed_at is null order by m.confirmed_at, m.user_id) end`.as(
        'acceptance_rank',
      ),
    ])
    .where('m.project_id', '=', projectId);

/** A page of the project's confirmed members in acceptance order, and how many there are. */
export async function listMembers(db: Db, projectId: string, limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    limit === 0
      ? Promise.resolve([])
      : db.selectFrom(rankedMembers(db, projectId).as('r')).selectAll().orderBy('r.confirmed_at').orderBy('r.user_id').limit(limit).offset(offset).execute(),
    db.selectFrom('project_members').select((eb) => eb.fn.countAll().as('total')).where('project_id', '=', projectId).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as MemberRecord[], total: Number(count.total) };
}

/** One member with the user's names, if any. */
export async function findMember(db: Db, projectId: string, userId: string): Promise<MemberRecord | undefined> {
  const row = await db.selectFrom(rankedMembers(db, projectId).as('r')).selectAll().where('r.user_id', '=', userId).executeTakeFirst();
  return row as MemberRecord | undefined;
}

/** Adds a member; an existing member surfaces as a primary-key violation. */
export async function insertMember(db: Db, member: MemberRow): Promise<void> {
  await db.insertInto('project_members').values(member).execute();
}

/** Applies changes to a member row. */
export async function updateMember(db: Db, projectId: string, userId: string, changes: Partial<Pick<MemberRow, 'role' | 'confirmed_at'>>): Promise<void> {
  await db.updateTable('project_members').set(changes).where('project_id', '=', projectId).where('user_id', '=', userId).execute();
}

/** Removes a member. */
export async function deleteMember(db: Db, projectId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('project_members').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
