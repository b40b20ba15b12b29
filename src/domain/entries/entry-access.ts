/** Loading an entry together with the caller's access to its project. */
import { notFound } from '../../errors.js';
import { findEntry } from '../../store/repositories/entries.js';
import { beginProjectWrite } from '../../store/repositories/projects.js';
import type { Db, EntryRow } from '../../store/schema.js';
import type { Capability } from '../access/capabilities.js';
import { loadProjectAccess, requireCapability, type Principal, type ProjectAccess } from '../access/project-access.js';
import { nowIso } from '../shared/ids.js';

/** The entry and the caller's access; 404 when missing or not visible, 403 without `capability`. */
export async function loadEntryAccess(
  db: Db,
  principal: Principal,
  entryId: string,
  capability: Capability,
): Promise<{ entry: EntryRow; access: ProjectAccess }> {
  const entry = await findEntry(db, entryId);
  if (!entry) throw notFound('entry');
  const access = await loadProjectAccess(db, principal, entry.project_id, () => notFound('entry'));
  requireCapability(access, capability);
  return { entry, access };
}

/**
 * Starts a write to the entry's project (serialising it with the project's other writes), then
 * loads entry and access under that lock, so later checks see the current state. A refused
 * caller's transaction rolls back, version bump included. `change`: `texts` when the write changes
 * only this entry's texts (its place and name stay), which lets exports re-read only this entry.
 */
export async function beginEntryWrite(
  db: Db,
  principal: Principal,
  entryId: string,
  capability: Capability,
  change: 'texts' | 'place',
): Promise<{ entry: EntryRow; access: ProjectAccess }> {
  const entry = await findEntry(db, entryId);
  if (!entry) throw notFound('entry');
  await beginProjectWrite(db, entry.project_id, nowIso(), change === 'texts' ? entryId : undefined);
  return loadEntryAccess(db, principal, entryId, capability);
}
