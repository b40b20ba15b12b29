/** Recording a write's changes: the change set of who wrote them, from where, at which version. */
import { recordChangeSet, type ChangeSetRecord } from '../../store/content-writes/change-log.js';
import type { Db } from '../../store/schema.js';
import type { Principal } from '../access/project-access.js';
import { newOrderedId, nowIso } from '../shared/ids.js';
import type { Change, ChangeSource } from './change.js';

/** `web` for a web session, else `api` (an import or a revert says so itself). */
export const sourceOf = (principal: Principal): ChangeSource => (principal.authenticatedBy === 'session' ? 'web' : 'api');

/** The change set of a write by `principal` that brought the project to `version`. */
export function changeSetFor(
  principal: Principal,
  projectId: string,
  version: number,
  options: { source?: ChangeSource; revertOf?: string; createdAt?: string } = {},
): ChangeSetRecord {
  return {
    id: newOrderedId(),
    projectId,
    version,
    source: options.source ?? sourceOf(principal),
    userId: principal.userId,
    apiKeyId: principal.apiKeyId ?? null,
    createdAt: options.createdAt ?? nowIso(),
    revertOf: options.revertOf ?? null,
  };
}

/** Records the write's changes in its transaction; answers the set's id (null when there were none). */
export async function recordChanges(db: Db, set: ChangeSetRecord, changes: readonly Change[]): Promise<string | null> {
  if (changes.length === 0) return null;
  await recordChangeSet(db, set, changes);
  return set.id;
}
