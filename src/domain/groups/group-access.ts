/** Loading a group together with the caller's access to its project. */
import { notFound } from '../../errors.js';
import { findGroup } from '../../store/repositories/groups.js';
import { startGroupWrite } from '../../store/content-writes/dialect-writes.js';
import type { Db, GroupRow } from '../../store/schema.js';
import { nowIso } from '../shared/ids.js';
import type { Capability } from '../access/capabilities.js';
import { accessFromRead, loadProjectAccess, requireCapability, type Principal, type ProjectAccess } from '../access/project-access.js';

/** The group and the caller's access; 404 when it is missing or its project is not visible, 403 without `capability`. */
export async function loadGroupAccess(
  db: Db,
  principal: Principal,
  groupId: string,
  capability: Capability,
): Promise<{ group: GroupRow; access: ProjectAccess }> {
  const group = await findGroup(db, groupId);
  if (!group) throw notFound('group');
  const access = await loadProjectAccess(db, principal, group.project_id, () => notFound('group'));
  requireCapability(access, capability);
  return { group, access };
}

/**
 * Starts a write to the group's project (serialising it with the project's other writes), then
 * loads group and access under that lock, so later checks see the current state. A refused
 * caller's transaction rolls back, version bump included.
 */
export async function beginGroupWrite(
  db: Db,
  principal: Principal,
  groupId: string,
  capability: Capability,
): Promise<GroupWrite> {
  const started = await startGroupWrite(db, groupId, nowIso(), principal.userId);
  if (!started) throw notFound('group');
  const access = accessFromRead(principal, started.project, () => notFound('group'));
  requireCapability(access, capability);
  return { group: started.group, access, version: started.version, path: started.path };
}

/** A write to a group, begun: what it checks, and what its change record needs. */
export interface GroupWrite {
  group: GroupRow;
  access: ProjectAccess;
  /** the project's content version this write brings it to */
  version: number;
  /** the technical names from the top-level group down to this one */
  path: string[];
}
