/** Members: invite, accept, list, change role, remove or leave, transfer ownership. */
import { AppError, conflict, forbidden, notFound, projectNotFound, validationError } from '../../errors.js';
import { isUniqueViolation } from '../../store/dialect.js';
import * as members from '../../store/repositories/members.js';
import { findProjectForUser, setProjectOwner } from '../../store/repositories/projects.js';
import { findUserByEmail } from '../../store/repositories/users.js';
import type { Db } from '../../store/schema.js';
import type { Role } from '../access/capabilities.js';
import { loadProjectAccess, requireCapability, type Principal, type ProjectAccess } from '../access/project-access.js';
import { nowIso } from '../shared/ids.js';
import { pageOf, type Page, type PageRequest } from '../shared/page.js';
import { inTransaction } from '../shared/transaction.js';
import { memberView, type MemberView } from './member-view.js';

/** Assigning, changing or removing the admin role takes the owner's canAssignAdminRole. */
function requireRoleChange(access: ProjectAccess, ...roles: string[]): void {
  requireCapability(access, 'canManageMembers');
  if (roles.includes('admin')) requireCapability(access, 'canAssignAdminRole');
}

async function viewOf(db: Db, access: ProjectAccess, userId: string): Promise<MemberView> {
  const member = await members.findMember(db, access.project.id, userId);
  if (!member) throw notFound('member');
  return memberView(member, access.project.ownerMemberLimit);
}

/** A page of the project's members and pending invitations (the owner is on the project, not here). */
export async function listMembers(db: Db, principal: Principal, projectId: string, page: PageRequest): Promise<Page<MemberView>> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadGroups');
  const found = await members.listMembers(db, projectId, page.limit, page.offset);
  return pageOf(page, found, (row) => memberView(row, access.project.ownerMemberLimit));
}

/** Invites a user by e-mail with a role; the invitation counts for nothing until accepted. */
export async function inviteMember(db: Db, principal: Principal, projectId: string, input: { email: string; role: Role }): Promise<MemberView> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireRoleChange(access, input.role);
  const user = await findUserByEmail(db, input.email);
  if (!user) throw new AppError('ERR_NOT_FOUND', `no user has the e-mail ${input.email}`);
  if (user.id === access.project.ownerId) throw conflict('the owner of the project cannot be invited to it');
  try {
    await members.insertMember(db, { project_id: projectId, user_id: user.id, role: input.role, confirmed_at: null, created_at: nowIso() });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`${input.email} is already a member or invited`);
    throw error;
  }
  return viewOf(db, access, user.id);
}

/** The invitee accepts; accepting again changes nothing. Anyone without an invitation gets not-found. */
export async function acceptInvitation(db: Db, principal: Principal, projectId: string): Promise<MemberView> {
  const project = await findProjectForUser(db, projectId, principal.userId);
  if (!project) throw projectNotFound();
  // The owner sees the project, so "project not found" would mislead: there is no invitation.
  if (project.ownerId === principal.userId) throw notFound('invitation');
  if (project.memberRole === null) throw projectNotFound();
  if (project.memberConfirmedAt === null) await members.updateMember(db, projectId, principal.userId, { confirmed_at: nowIso() });
  return viewOf(db, await loadProjectAccess(db, principal, projectId), principal.userId);
}

/** Changes a member's (or an invitation's) role. */
export async function changeRole(db: Db, principal: Principal, projectId: string, userId: string, role: Role): Promise<MemberView> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canManageMembers');
  const target = await members.findMember(db, projectId, userId);
  if (!target) throw notFound('member');
  requireRoleChange(access, target.role, role);
  await members.updateMember(db, projectId, userId, { role });
  return viewOf(db, access, userId);
}

/** Removes a member (managers) or leaves (the member itself; also declines an invitation). */
export async function removeMember(db: Db, principal: Principal, projectId: string, userId: string): Promise<void> {
  if (userId === principal.userId) {
    const project = await findProjectForUser(db, projectId, principal.userId);
    if (!project) throw projectNotFound();
    if (project.ownerId === principal.userId) throw forbidden('the owner cannot leave the project; transfer the ownership first');
    if (project.memberRole === null) throw projectNotFound();
    await members.deleteMember(db, projectId, userId);
    return;
  }
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canManageMembers');
  if (userId === access.project.ownerId) throw forbidden('the owner cannot be removed; the owner can transfer the ownership');
  const target = await members.findMember(db, projectId, userId);
  if (!target) throw notFound('member');
  requireRoleChange(access, target.role);
  await members.deleteMember(db, projectId, userId);
}

/**
 * Makes a confirmed member the owner; the old owner becomes an admin and takes the new owner's
 * place in acceptance order, so nobody moves across the member limit.
 */
export async function transferOwnership(db: Db, principal: Principal, projectId: string, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const access = await loadProjectAccess(trx, principal, projectId);
    requireCapability(access, 'canTransferOwnership');
    const target = await members.findMember(trx, projectId, userId);
    if (!target || target.confirmed_at === null) throw validationError('the new owner must be a confirmed member of the project', '/body/userId');
    await members.deleteMember(trx, projectId, userId);
    await members.insertMember(trx, { project_id: projectId, user_id: principal.userId, role: 'admin', confirmed_at: target.confirmed_at, created_at: target.created_at });
    await setProjectOwner(trx, projectId, userId);
  });
}
