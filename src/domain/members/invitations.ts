/** The invitations waiting for the caller (accepted with POST /projects/{id}/members/accept, declined by leaving). */
import { listPendingInvitations } from '../../store/repositories/members.js';
import type { Db } from '../../store/schema.js';
import type { Principal } from '../access/project-access.js';

export interface InvitationView {
  projectId: string;
  projectName: string;
  role: string;
  invitedAt: string;
}

/** The caller's pending invitations, newest first. */
export async function listInvitations(db: Db, principal: Principal): Promise<InvitationView[]> {
  return listPendingInvitations(db, principal.userId);
}
