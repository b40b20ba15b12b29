/** Starting a write to an entry: its project's lock, then the entry and the caller's access to it. */
import { notFound } from '../../errors.js';
import { startEntryWrite } from '../../store/content-writes/dialect-writes.js';
import type { Db, EntryRow, TranslationRow } from '../../store/schema.js';
import type { Capability } from '../access/capabilities.js';
import { accessFromRead, requireCapability, type Principal, type ProjectAccess } from '../access/project-access.js';
import { keyOf } from '../changes/change.js';
import { nowIso } from '../shared/ids.js';

/**
 * Starts a write to the entry's project (serialising it with the project's other writes), then
 * loads entry and access under that lock, so later checks see the current state. A refused
 * caller's transaction rolls back, version bump included.
 * `language`: the translation to read along (a translation write's precondition).
 */
export async function beginEntryWrite(
  db: Db,
  principal: Principal,
  entryId: string,
  capability: Capability,
  language: string | null = null,
): Promise<EntryWrite> {
  const started = await startEntryWrite(db, entryId, nowIso(), principal.userId, language);
  if (!started) throw notFound('entry');
  const access = accessFromRead(principal, started.project, () => notFound('entry'));
  requireCapability(access, capability);
  const { entry, translation, version, groupPath } = started;
  return { entry, access, translation, version, groupPath, key: keyOf([...groupPath, entry.technical_name]) };
}

/** A write to an entry, begun: what it checks, and what its change record needs. */
export interface EntryWrite {
  entry: EntryRow;
  access: ProjectAccess;
  translation: TranslationRow | undefined;
  /** the project's content version this write brings it to */
  version: number;
  /** the technical names of the entry's group and its ancestors, from the top */
  groupPath: string[];
  /** the entry's dotted key */
  key: string;
}
