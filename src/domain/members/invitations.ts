/**
 * Invitations (issue 30, M4 and L2). An invitation is addressed to an e-mail, whether or not it has
 * an account, and answers the same either way. It goes to whoever proves the address: an account
 * made by an administrator (`tolk users create`), an account whose address was verified by mail, or
 * whoever presents the invitation's one-time token, which the inviter gets once, in the invite's
 * answer. Signing up with an address alone proves nothing.
 */
import { randomBytes } from 'node:crypto';
import { AppError, conflict, forbidden, notFound, projectNotFound, validationError } from '../../errors.js';
import { isUniqueViolation } from '../../store/dialect.js';
import * as invitations from '../../store/repositories/invitations.js';
import * as members from '../../store/repositories/members.js';
import { findProjectForUser } from '../../store/repositories/projects.js';
import { findUserByEmail, findUserById } from '../../store/repositories/users.js';
import type { Db, InvitationRow, UserRow } from '../../store/schema.js';
import type { Role } from '../access/capabilities.js';
import { loadProjectAccess, requireCapability, type Principal, type ProjectAccess } from '../access/project-access.js';
import { hashSecret } from '../keys/api-keys.js';
import { newId, nowIso } from '../shared/ids.js';
import { inTransaction } from '../shared/transaction.js';
import { isEmailAddress } from '../users/create-user.js';
import { invitationView, memberView, type MemberView } from './member-view.js';

/** What a caller must do to accept an invitation to its address without the link. */
const PROVE_ADDRESS =
  'accepting this invitation needs proof that the address is yours: verify your e-mail address (the link mailed at sign-up, or ask for a new one in the settings), or open the invitation link the inviter was given';

/** Whether the user's address is proved: an administrator made the account, or its owner followed a verification link. */
export function hasProvedAddress(user: Pick<UserRow, 'created_by' | 'email_verified_at'>): boolean {
  return user.created_by === 'admin' || user.email_verified_at !== null;
}

/** Assigning, changing or removing the admin role takes the owner's canAssignAdminRole. */
export function requireRoleChange(access: ProjectAccess, ...roles: string[]): void {
  requireCapability(access, 'canManageMembers');
  if (roles.includes('admin')) requireCapability(access, 'canAssignAdminRole');
}

export type InvitedMember = MemberView & { invitationToken: string };

/** Invites an address with a role; the answer carries the one-time token, the only time it is available. */
export async function inviteMember(db: Db, principal: Principal, projectId: string, input: { email: string; role: Role }): Promise<InvitedMember> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireRoleChange(access, input.role);
  if (!isEmailAddress(input.email)) throw validationError('email must be an e-mail address', '/body/email');
  // Both are people the inviter can see already (the project's owner, its member list): no leak.
  const user = await findUserByEmail(db, input.email);
  if (user?.id === access.project.ownerId) throw conflict('the owner of the project cannot be invited to it');
  if (user && (await members.findMember(db, projectId, user.id))) throw conflict(`${input.email} is already a member`);
  const token = randomBytes(32).toString('base64url');
  const row: InvitationRow = {
    id: newId(),
    project_id: projectId,
    email: input.email,
    email_key: input.email.toLowerCase(),
    role: input.role,
    token_hash: hashSecret(token),
    created_at: nowIso(),
  };
  try {
    await invitations.insertInvitation(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`${input.email} is invited already (remove the invitation to make a new link)`);
    throw error;
  }
  return { ...invitationView(row), invitationToken: token };
}

/** The caller's account, which a key or session has just shown to exist. */
async function callerOf(db: Db, principal: Principal): Promise<UserRow> {
  const user = await findUserById(db, principal.userId);
  if (!user) throw new AppError('ERR_SETTINGS_PROFILE_USER_NOT_FOUND', 'the user no longer exists');
  return user;
}

/**
 * The invitee accepts: with the invitation's token, or as the proved owner of the invited address.
 * Accepting again changes nothing; without a token, anyone without an invitation gets not-found.
 */
export async function acceptInvitation(db: Db, principal: Principal, projectId: string, token?: string): Promise<MemberView> {
  const project = await findProjectForUser(db, projectId, principal.userId);
  // The owner sees the project, so "project not found" would mislead: there is no invitation.
  if (project?.ownerId === principal.userId) throw notFound('invitation');
  if (project?.memberRole != null) return confirmedView(db, principal, projectId);
  const user = await callerOf(db, principal);
  let invitation: InvitationRow | undefined;
  if (token !== undefined) {
    invitation = await invitations.findInvitationByToken(db, projectId, hashSecret(token));
    if (!invitation) throw forbidden('this invitation link is not valid: it was used, withdrawn, or replaced by a newer invitation');
  } else {
    invitation = project && (await invitations.findInvitationForEmail(db, projectId, user.email));
    if (!invitation) throw projectNotFound();
    if (!hasProvedAddress(user)) throw forbidden(PROVE_ADDRESS);
  }
  const used = invitation;
  try {
    await inTransaction(db, async (trx) => {
      // One use: of two accepts racing with one token, only the one that removes it goes on.
      if (!(await invitations.deleteInvitation(trx, used.id))) throw forbidden('this invitation was accepted or withdrawn meanwhile');
      const own = await invitations.findInvitationForEmail(trx, projectId, user.email);
      if (own) await invitations.deleteInvitation(trx, own.id);
      await members.insertMember(trx, { project_id: projectId, user_id: user.id, role: used.role, confirmed_at: nowIso(), created_at: used.created_at });
    });
  } catch (error) {
    // A member already (a concurrent accept of the caller's): nothing is used up, as for accepting again.
    if (!isUniqueViolation(error)) throw error;
  }
  return confirmedView(db, principal, projectId);
}

async function confirmedView(db: Db, principal: Principal, projectId: string): Promise<MemberView> {
  const access = await loadProjectAccess(db, principal, projectId);
  const member = await members.findMember(db, projectId, principal.userId);
  if (!member) throw notFound('member');
  return memberView(member, access.project.ownerMemberLimit);
}

/** The invitee declines an invitation to its proved address (DELETE of its own member id). */
export async function declineInvitation(db: Db, principal: Principal, projectId: string): Promise<void> {
  const user = await callerOf(db, principal);
  const invitation = await invitations.findInvitationForEmail(db, projectId, user.email);
  if (!invitation) throw projectNotFound();
  // Else whoever signed up with the address could throw away the invitations meant for its owner.
  if (!hasProvedAddress(user)) throw forbidden(PROVE_ADDRESS.replace('accepting', 'declining'));
  await invitations.deleteInvitation(db, invitation.id);
}

/** The invitations waiting for the caller (accepted with POST /projects/{id}/members/accept); none before the address is proved. */
export async function listInvitations(db: Db, principal: Principal) {
  const user = await callerOf(db, principal);
  return hasProvedAddress(user) ? invitations.listInvitationsToEmail(db, user.email) : [];
}
