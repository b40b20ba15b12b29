/** Members: list, change role, remove or leave, transfer ownership (inviting and accepting: invitations.ts). */
import { forbidden, notFound, projectNotFound, validationError } from '../../errors.js';
import * as invitations from '../../store/repositories/invitations.js';
import * as members from '../../store/repositories/members.js';
import { findProjectForUser, setProjectOwner } from '../../store/repositories/projects.js';
import type { Db } from '../../store/schema.js';
import type { Role } from '../access/capabilities.js';
import { loadProjectAccess, requireCapability, type Principal, type ProjectAccess } from '../access/project-access.js';
import type { Page, PageRequest } from '../shared/page.js';
import { inTransaction } from '../shared/transaction.js';
import { declineInvitation, requireRoleChange } from './invitations.js';
import { invitationView, memberView, type MemberView } from './member-view.js';

async function viewOf(db: Db, access: ProjectAccess, userId: string): Promise<MemberView> {
  const member = await members.findMember(db, access.project.id, userId);
  if (!member) throw notFound('member');
  return memberView(member, access.project.ownerMemberLimit);
}

/** A page of the project's confirmed members in acceptance order, then its invitations (the owner is on the project, not here). */
export async function listMembers(db: Db, principal: Principal, projectId: string, page: PageRequest): Promise<Page<MemberView>> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadGroups');
  const confirmed = await members.listMembers(db, projectId, page.limit, page.offset);
  const pending = await invitations.listInvitationsOfProject(db, projectId, page.limit - confirmed.rows.length, Math.max(0, page.offset - confirmed.total));
  const result = [...confirmed.rows.map((row) => memberView(row, access.project.ownerMemberLimit)), ...pending.rows.map(invitationView)];
  return { limit: page.limit, offset: page.offset, total: confirmed.total + pending.total, result };
}

/** Changes a member's or an invitation's role (an invitation is named by its own id until accepted). */
export async function changeRole(db: Db, principal: Principal, projectId: string, userId: string, role: Role): Promise<MemberView> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canManageMembers');
  const target = await members.findMember(db, projectId, userId);
  if (target) {
    requireRoleChange(access, target.role, role);
    await members.updateMember(db, projectId, userId, { role });
    return viewOf(db, access, userId);
  }
  const invitation = await invitations.findInvitation(db, projectId, userId);
  if (!invitation) throw notFound('member');
  requireRoleChange(access, invitation.role, role);
  await invitations.setInvitationRole(db, invitation.id, role);
  return invitationView({ ...invitation, role });
}

/** Removes a member or withdraws an invitation (managers), or leaves (the member itself; an invitee declines). */
export async function removeMember(db: Db, principal: Principal, projectId: string, userId: string): Promise<void> {
  if (userId === principal.userId) {
    const project = await findProjectForUser(db, projectId, principal.userId);
    if (!project) throw projectNotFound();
    if (project.ownerId === principal.userId) throw forbidden('the owner cannot leave the project; transfer the ownership first');
    if (project.memberRole === null) return declineInvitation(db, principal, projectId);
    await members.deleteMember(db, projectId, userId);
    return;
  }
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canManageMembers');
  if (userId === access.project.ownerId) throw forbidden('the owner cannot be removed; the owner can transfer the ownership');
  const target = (await members.findMember(db, projectId, userId)) ?? (await invitations.findInvitation(db, projectId, userId));
  if (!target) throw notFound('member');
  requireRoleChange(access, target.role);
  if ('user_id' in target) await members.deleteMember(db, projectId, userId);
  else await invitations.deleteInvitation(db, target.id);
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
