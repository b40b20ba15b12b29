/**
 * The capability table of the contract: the single source of every permission decision, for the
 * API and the web application alike.
 */
export const ROLES = ['admin', 'editor', 'reviewer', 'translator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const CAPABILITY_NAMES = [
  'canUpdateProject',
  'canDeleteProject',
  'canManageMembers',
  'canAssignAdminRole',
  'canTransferOwnership',
  'canLeave',
  'canReadEntries',
  'canEditEntries',
  'canTranslate',
  'canReview',
  'canReadGroups',
  'canEditGroups',
] as const;
export type Capability = (typeof CAPABILITY_NAMES)[number];

type Holder = 'owner' | Role;

const TABLE: Record<Capability, readonly Holder[]> = {
  canUpdateProject: ['owner', 'admin'],
  canDeleteProject: ['owner'],
  canTransferOwnership: ['owner'],
  canAssignAdminRole: ['owner'],
  canManageMembers: ['owner', 'admin'],
  canEditGroups: ['owner', 'admin', 'editor'],
  canEditEntries: ['owner', 'admin', 'editor'],
  canReview: ['owner', 'admin', 'editor', 'reviewer'],
  canTranslate: ['owner', 'admin', 'editor', 'reviewer', 'translator'],
  canReadGroups: ['owner', 'admin', 'editor', 'reviewer', 'translator', 'viewer'],
  canReadEntries: ['owner', 'admin', 'editor', 'reviewer', 'translator', 'viewer'],
  canLeave: ['admin', 'editor', 'reviewer', 'translator', 'viewer'],
};

/** What a member over the project's member limit keeps: reading, and leaving. */
const OVER_LIMIT_KEEPS: ReadonlySet<Capability> = new Set(['canReadGroups', 'canReadEntries', 'canLeave']);

export type Capabilities = Record<Capability, boolean> & { isOwner: boolean; isOverLimit: boolean; role: Role | null };

/** The capabilities of a confirmed member (role) or of the owner (role null). */
export function capabilitiesOf(role: Role | null, isOverLimit: boolean): Capabilities {
  const holder: Holder = role ?? 'owner';
  const flags = Object.fromEntries(
    CAPABILITY_NAMES.map((name) => [name, TABLE[name].includes(holder) && (!isOverLimit || OVER_LIMIT_KEEPS.has(name))]),
  ) as Record<Capability, boolean>;
  return { isOwner: role === null, isOverLimit, ...flags, role };
}

/** Narrows a stored role string to a Role. */
export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
