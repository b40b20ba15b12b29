/**
 * Dangling links to users and projects: owners, members, API keys, translators, quota counters
 * whose user or project is missing, and an owner listed among its own members (the owner is on
 * the project, never in the member list: the member counts and limit depend on it).
 */
import type { Db } from '../schema.js';
import { problem, type IntegrityProblem } from './problem.js';

async function projectsWithoutOwner(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('projects as p')
    .leftJoin('users as u', 'u.id', 'p.owner_id')
    .select(['p.id', 'p.owner_id'])
    .where('u.id', 'is', null)
    .execute();
  return rows.map((row) => problem('dangling-reference', `project ${row.id}: its owner ${row.owner_id} is missing`));
}

async function membersWithoutProjectOrUser(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('project_members as m')
    .leftJoin('projects as p', 'p.id', 'm.project_id')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.project_id', 'm.user_id', 'p.id as found_project', 'u.id as found_user'])
    .where((eb) => eb.or([eb('p.id', 'is', null), eb('u.id', 'is', null)]))
    .execute();
  return rows.flatMap((row) => [
    ...(row.found_project === null ? [`member ${row.user_id}: its project ${row.project_id} is missing`] : []),
    ...(row.found_user === null ? [`member ${row.user_id} of project ${row.project_id}: the user is missing`] : []),
  ].map((message) => problem('dangling-reference', message)));
}

async function ownersAsMembers(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('project_members as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .select(['m.project_id', 'm.user_id'])
    .whereRef('m.user_id', '=', 'p.owner_id')
    .execute();
  return rows.map((row) => problem('owner-is-member', `project ${row.project_id}: its owner ${row.user_id} is also a member`));
}

/** Invitations whose project is gone, and members still pending (since migration 009 an invitation is a row of `invitations`). */
async function invitationProblems(db: Db): Promise<IntegrityProblem[]> {
  const orphans = await db
    .selectFrom('invitations as i')
    .leftJoin('projects as p', 'p.id', 'i.project_id')
    .select(['i.id', 'i.project_id'])
    .where('p.id', 'is', null)
    .execute();
  const pending = await db.selectFrom('project_members').select(['project_id', 'user_id']).where('confirmed_at', 'is', null).execute();
  return [
    ...orphans.map((row) => problem('dangling-reference', `invitation ${row.id}: its project ${row.project_id} is missing`)),
    ...pending.map((row) => problem('invitation', `member ${row.user_id} of project ${row.project_id}: not confirmed, but pending invitations belong in invitations`)),
  ];
}

async function keysWithoutUser(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.user_id')
    .select(['k.id', 'k.user_id'])
    .where('u.id', 'is', null)
    .execute();
  return rows.map((row) => problem('dangling-reference', `API key ${row.id}: its user ${row.user_id} is missing`));
}

async function translationsWithoutTranslator(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('translations as t')
    .leftJoin('users as u', 'u.id', 't.translator_id')
    .select(['t.id', 't.translator_id'])
    .where('u.id', 'is', null)
    .execute();
  return rows.map((row) => problem('dangling-reference', `translation ${row.id}: its translator ${row.translator_id} is missing`));
}

async function usageWithoutUser(db: Db): Promise<IntegrityProblem[]> {
  const rows = await db
    .selectFrom('daily_usage as d')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .select(['d.user_id', 'd.day'])
    .where('u.id', 'is', null)
    .execute();
  return rows.map((row) => problem('dangling-reference', `daily usage of ${row.day}: its user ${row.user_id} is missing`));
}

/** Rows that point at a missing user or project, and owners listed as members. */
export async function accountReferenceProblems(db: Db): Promise<IntegrityProblem[]> {
  return [
    ...(await projectsWithoutOwner(db)),
    ...(await membersWithoutProjectOrUser(db)),
    ...(await ownersAsMembers(db)),
    ...(await invitationProblems(db)),
    ...(await keysWithoutUser(db)),
    ...(await translationsWithoutTranslator(db)),
    ...(await usageWithoutUser(db)),
  ];
}
