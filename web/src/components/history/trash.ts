/**
 * The Trash: the project's deleted groups and entries not brought back since. A delete is back when a
 * revert of its set (a set's revert or the one change's: both have `revertOf` = the set) created the
 * object again — the rule the server's revert keeps ("a delete already undone is not restored twice").
 * If what came back was deleted again, that later delete is in the Trash instead: one item per thing.
 */
import type { Change } from '../../types';
import { fieldOf } from './changeText';
import { allChanges, allChangeSets } from './historyApi';

export interface TrashItem {
  change: Change;
  target: 'group' | 'entry';
  key: string;
  /** a group's sub-groups and entries (all levels), an entry's translations, as the delete removed them */
  contents: { groups: number; entries: number; translations: number };
}

/** How many deletes the Trash reads at most: the newest ones. */
export const TRASH_CAP = 1_000;

type Removed = { groups?: Removed[]; entries?: { translations?: unknown[] }[] };

function countContents(fields: Removed): TrashItem['contents'] {
  const counted = { groups: 0, entries: 0, translations: 0 };
  for (const entry of fields.entries ?? []) {
    counted.entries += 1;
    counted.translations += entry.translations?.length ?? 0;
  }
  for (const group of fields.groups ?? []) {
    const inner = countContents(group);
    counted.groups += 1 + inner.groups;
    counted.entries += inner.entries;
    counted.translations += inner.translations;
  }
  return counted;
}

/** Where an object of a group or entry change stands: its name and its parent (group) or group (entry). */
const placeOf = (change: Change, fields: Change['before']) =>
  `${String(fieldOf(fields, 'technicalName'))}|${String(fieldOf(fields, change.target === 'group' ? 'parentId' : 'groupId'))}`;

/** The Trash's items, newest first; `complete` false when there were more deletes than TRASH_CAP. */
export async function loadTrash(projectId: string): Promise<{ items: TrashItem[]; complete: boolean }> {
  const [groups, entries, groupsBack, entriesBack, reverts] = await Promise.all([
    allChanges(projectId, { target: 'group', op: 'delete' }, TRASH_CAP),
    allChanges(projectId, { target: 'entry', op: 'delete' }, TRASH_CAP),
    allChanges(projectId, { target: 'group', op: 'create', source: 'revert' }),
    allChanges(projectId, { target: 'entry', op: 'create', source: 'revert' }),
    allChangeSets(projectId, { source: 'revert' }),
  ]);
  const revertOf = new Map(reverts.map((set) => [set.id, set.revertOf]));
  // What each revert brought back, by the set it reverted: by key, and by name and place (a parent renamed since changes the key)
  const back = new Set<string>();
  for (const created of [...groupsBack.items, ...entriesBack.items]) {
    const of = revertOf.get(created.changeSetId);
    if (!of) continue;
    back.add(`${of}|${created.target}|key|${created.key}`);
    back.add(`${of}|${created.target}|at|${placeOf(created, created.after)}`);
  }
  const isBack = (change: Change) =>
    back.has(`${change.changeSetId}|${change.target}|key|${change.key}`) || back.has(`${change.changeSetId}|${change.target}|at|${placeOf(change, change.before)}`);
  const items = [...groups.items, ...entries.items]
    .filter((change) => !isBack(change))
    // a set's several changes have numbered ids (a change alone in its set has the set's id: nothing to order it with)
    .sort((a, b) => b.version - a.version || Number(b.id) - Number(a.id) || 0)
    .map(
      (change): TrashItem => ({
        change,
        target: change.target === 'group' ? 'group' : 'entry',
        key: change.key ?? '',
        contents:
          change.target === 'group'
            ? countContents((change.before ?? {}) as Removed)
            : { groups: 0, entries: 0, translations: ((fieldOf(change.before, 'translations') as unknown[] | undefined) ?? []).length },
      }),
    );
  return { items, complete: groups.complete && entries.complete };
}
