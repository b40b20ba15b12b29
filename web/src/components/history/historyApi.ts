/**
 * The history's calls (CONTRACT "History"): a project's change sets and changes as Pages, a revert of
 * a set or of one change (a dry run or for real), and who made a set when only its id is known.
 */
import { api } from '../../api';
import type { Change, ChangeQuery, ChangeSet, ChangeSetQuery, Page, RevertAnswer, RevertQuery } from '../../types';

export function listChangeSets(projectId: string, query: Partial<ChangeSetQuery>): Promise<Page<ChangeSet>> {
  return api<Page<ChangeSet>>(`/projects/${encodeURIComponent(projectId)}/change-sets`, { query });
}

export function listChanges(projectId: string, query: Partial<ChangeQuery>): Promise<Page<Change>> {
  return api<Page<Change>>(`/projects/${encodeURIComponent(projectId)}/changes`, { query });
}

/** Every page of a list of changes, newest first, up to `cap`; `complete` says whether that was all. */
export async function allChanges(projectId: string, query: Partial<ChangeQuery>, cap = 1_000): Promise<{ items: Change[]; complete: boolean }> {
  const items: Change[] = [];
  for (;;) {
    const page = await listChanges(projectId, { ...query, limit: 100, offset: items.length });
    items.push(...page.result);
    if (items.length >= page.total || page.result.length === 0) return { items, complete: true };
    if (items.length >= cap) return { items, complete: false };
  }
}

/** Every change set of the list, up to `cap`. */
export async function allChangeSets(projectId: string, query: Partial<ChangeSetQuery>, cap = 1_000): Promise<ChangeSet[]> {
  const sets: ChangeSet[] = [];
  for (;;) {
    const page = await listChangeSets(projectId, { ...query, limit: 100, offset: sets.length });
    sets.push(...page.result);
    if (sets.length >= page.total || page.result.length === 0 || sets.length >= cap) return sets;
  }
}

/** What a revert takes back: a whole change set, or one change. */
export interface RevertTarget {
  kind: 'change-sets' | 'changes';
  id: string;
}

/** POST …/revert: a dry run answers what it would do; `abort` answers 409 (ApiError) on any conflict. */
export function revert(target: RevertTarget, query: Partial<RevertQuery>): Promise<RevertAnswer> {
  return api<RevertAnswer>(`/${target.kind}/${encodeURIComponent(target.id)}/revert`, { method: 'POST', query });
}

/** What taking one change back came to: written, already as before, or refused by a later change. */
export type ChangeRestore = { kind: 'restored'; answer: RevertAnswer } | { kind: 'unchanged' } | { kind: 'conflict'; conflict: RevertAnswer['conflicts'][number] };

/**
 * Takes one change back the way the History and the Trash do: a dry run first, and the revert only
 * when it finds no conflict (one change is one object: its conflict leaves nothing else to revert);
 * `abort`, so a write racing in between refuses it (409) rather than being overwritten.
 */
export async function restoreChange(changeId: string): Promise<ChangeRestore> {
  const target: RevertTarget = { kind: 'changes', id: changeId };
  const plan = await revert(target, { dryRun: true });
  const conflict = plan.conflicts[0];
  if (conflict) return { kind: 'conflict', conflict };
  if (plan.restored === 0) return { kind: 'unchanged' };
  return { kind: 'restored', answer: await revert(target, { onConflict: 'abort' }) };
}

/** Who made a change set, how and when. */
export type SetOrigin = Pick<Change, 'user' | 'source' | 'createdAt'>;

const origins = new Map<string, Promise<SetOrigin | null>>();

/**
 * Who made the change set `setId` (a revert's `revertOf`, a set's `revertedBy`), read from its first
 * change: the API reads no single set, and every recorded set has a change. Null when pruned.
 */
export function setOrigin(projectId: string, setId: string): Promise<SetOrigin | null> {
  let found = origins.get(setId);
  if (!found) {
    found = listChanges(projectId, { changeSetId: setId, limit: 1 }).then(
      (page) => page.result[0] ?? null,
      (failure: unknown) => {
        origins.delete(setId);
        throw failure;
      },
    );
    origins.set(setId, found);
  }
  return found;
}
