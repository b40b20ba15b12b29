/** The Member resource of the contract's members extension. */
import type { MemberRecord } from '../../store/repositories/members.js';
import type { InvitationRow } from '../../store/schema.js';

export interface MemberView {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  confirmed: boolean;
  /** beyond the owner's member limit in acceptance order: read access only */
  isOverLimit: boolean;
  createdAt: string;
}

/** Maps a stored member to its API shape, given the owner's member limit. */
export function memberView(row: MemberRecord, memberLimit: number): MemberView {
  return {
    userId: row.user_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    confirmed: row.confirmed_at !== null,
    isOverLimit: row.acceptance_rank !== null && Number(row.acceptance_rank) > memberLimit,
    createdAt: row.created_at,
  };
}

/**
 * A pending invitation in the Member shape. It tells nothing about the address's account, if there is
 * one (L2): `userId` is the invitation's own id (what PATCH and DELETE of /members/{userId} take until
 * it is accepted), the names are empty, and the e-mail is the inviter's own words.
 */
export function invitationView(row: InvitationRow): MemberView {
  return { userId: row.id, email: row.email, firstName: '', lastName: '', role: row.role, confirmed: false, isOverLimit: false, createdAt: row.created_at };
}
