/** Who may see a project, and with which capabilities. */
import { AppError, forbidden, projectNotFound } from '../../errors.js';
import { findProjectWithPlace } from '../../store/repositories/members.js';
import type { ProjectForUser, ProjectRecord, ProjectWithMembership } from '../../store/repositories/projects.js';
import type { Db } from '../../store/schema.js';
import { capabilitiesOf, isRole, type Capabilities, type Capability, type Role } from './capabilities.js';

/** The authenticated caller of a use case. */
export interface Principal {
  userId: string;
  /** authenticated API requests the user may make per UTC day (absent for callers that are not metered) */
  dailyQuota?: number;
  /** how the caller proved who it is: an API key or a web session (both are metered alike, contract) */
  authenticatedBy?: 'apiKey' | 'session';
  /** the API key the request carried (recorded with its changes); absent for a web session */
  apiKeyId?: string;
  /**
   * The request's project as the user saw it when the request was authenticated, read in the same
   * statement (PostgreSQL; reads only, see http/plugins/auth.ts): the access check outside a
   * transaction uses it instead of a query. Checks inside a transaction always read again.
   */
  prefetchedProject?: ProjectForUser;
}

export interface ProjectAccess {
  project: ProjectRecord;
  capabilities: Capabilities;
}

/**
 * The caller's access to a project. Strangers and pending invitees get the same not-found as a
 * missing project (no existence leak); `notFound` lets group and entry routes say "group not found".
 */
export async function loadProjectAccess(
  db: Db,
  principal: Principal,
  projectId: string,
  notFound: () => AppError = projectNotFound,
): Promise<ProjectAccess> {
  const prefetched = !db.isTransaction && principal.prefetchedProject?.id === projectId ? principal.prefetchedProject : undefined;
  return accessFromRead(principal, prefetched ?? (await findProjectWithPlace(db, projectId, principal.userId)), notFound);
}

/** The caller's access from a read of the project (findProjectWithPlace, or one made with other data: startEntryWrite, the authentication's statement). */
export function accessFromRead(principal: Principal, project: ProjectForUser | undefined, notFound: () => AppError = projectNotFound): ProjectAccess {
  if (!project) throw notFound();
  const role = memberRoleOf(principal, project, notFound);
  if (role === null) return { project, capabilities: capabilitiesOf(null, false) };
  // Members beyond the owner's limit, in acceptance order, keep read access only.
  return { project, capabilities: capabilitiesOf(role, project.acceptedBefore >= project.ownerMemberLimit) };
}

/** The caller's role in the project: null for its owner; a confirmed member's role; otherwise the not-found error. */
function memberRoleOf(principal: Principal, project: ProjectWithMembership, notFound: () => AppError): Role | null {
  if (project.ownerId === principal.userId) return null;
  const role = project.memberRole;
  if (role === null || project.memberConfirmedAt === null || !isRole(role)) throw notFound();
  return role;
}

/** Throws 403 unless the access grants the capability. */
export function requireCapability(access: ProjectAccess, capability: Capability): void {
  if (!access.capabilities[capability]) throw forbidden();
}
