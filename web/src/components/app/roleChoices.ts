/** The roles a member picker offers (the invitation form, a member's role), from the most rights to the fewest. */
import type { Role } from '../../types';

// Keyed by every role the API knows: a role it adds is a type error here until it has its place.
const PLACES: Record<Role, true> = { admin: true, editor: true, reviewer: true, translator: true, viewer: true };
const ALL = Object.keys(PLACES) as Role[];

/** Every role, admin only for whoever may assign it (canAssignAdminRole). */
export const rolesToOffer = (canAssignAdminRole: boolean): Role[] => (canAssignAdminRole ? ALL : ALL.filter((role) => role !== 'admin'));
