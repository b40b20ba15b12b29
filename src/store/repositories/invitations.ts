/** Pending invitations, addressed by e-mail (an address with or without an account). */
import type { Db, InvitationRow } from '../schema.js';

/** Stores an invitation; a second one to the same address in the project surfaces as a unique violation. */
export async function insertInvitation(db: Db, invitation: InvitationRow): Promise<void> {
  await db.insertInto('invitations').values(invitation).execute();
}

/** The project's invitation with this id, if any. */
export async function findInvitation(db: Db, projectId: string, id: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/** The project's invitation to this address (case-insensitive), if any. */
export async function findInvitationForEmail(db: Db, projectId: string, email: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('project_id', '=', projectId).where('email_key', '=', email.toLowerCase()).executeTakeFirst();
}

/** The project's invitation whose one-time token has this hash, if any. */
export async function findInvitationByToken(db: Db, projectId: string, tokenHash: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('project_id', '=', projectId).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Changes an invitation's role. */
export async function setInvitationRole(db: Db, id: string, role: string): Promise<void> {
  await db.updateTable('invitations').set({ role }).where('id', '=', id).execute();
}

/** Removes an invitation; false when it was already gone (accepted or removed meanwhile). */
export async function deleteInvitation(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('invitations').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A page of the project's invitations in invitation order, and how many there are. */
export async function listInvitationsOfProject(db: Db, projectId: string, limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    limit === 0
      ? Promise.resolve([])
      : db.selectFrom('invitations').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute(),
    db.selectFrom('invitations').select((eb) => eb.fn.countAll().as('total')).where('project_id', '=', projectId).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** The invitations to this address, newest first, with the project's name. */
export async function listInvitationsToEmail(db: Db, email: string) {
  return db
    .selectFrom('invitations as i')
    .innerJoin('projects as p', 'p.id', 'i.project_id')
    .select(['p.id as projectId', 'p.name as projectName', 'i.role', 'i.created_at as invitedAt'])
    .where('i.email_key', '=', email.toLowerCase())
    .orderBy('i.created_at', 'desc')
    .execute();
}
