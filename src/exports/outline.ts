/**
 * The outline of an export: the project's groups and entries in the order every export writes them,
 * as a list of steps (open a group, an entry, close the group), computed once per export from the
 * groups and the entries' places, without any text. The texts are then read in that order, a batch
 * at a time (export-source.ts).
 */
import { conflict } from '../errors.js';
import { TOP_LEVEL_GROUP_NAME } from '../names/technical-names.js';
import type { EntryPlace } from '../store/repositories/exports.js';

export type OutlineStep =
  | { readonly kind: 'open'; readonly name: string }
  | { readonly kind: 'close' }
  /** `index`: the entry's place in `Outline.entryIds` */
  | { readonly kind: 'entry'; readonly name: string; readonly index: number };

export interface Outline {
  /** depth first; at every level the sub-groups and entries merged in technical-name order */
  steps: OutlineStep[];
  /** every entry's id in output order */
  entryIds: string[];
  /** every entry's group id (the top-level keys' group for a top-level entry) and name, in the same order */
  entryGroupIds: string[];
  entryNames: string[];
  /** the names of the top-level entries (the top-level keys' group), in output order */
  topLevelEntries: string[];
}

interface GroupRow {
  id: string;
  parent_id: string | null;
  technical_name: string;
}

type Child = { kind: 'group'; name: string; group: GroupRow } | { kind: 'entry'; name: string; id: string; groupId: string };

const byName = (a: Child, b: Child) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const CLOSE: OutlineStep = { kind: 'close' };

/**
 * At every level, sub-groups and entries merged in technical-name order (they share one name
 * space), so the output is alphabetical at every level and the same data always gives the same
 * bytes. Empty groups are opened and closed (written as {}). The top-level keys' group (empty
 * name) is no level of its own: its entries are the top level's. A top-level entry and a top-level
 * group of one name would be one key in every export: refused (409).
 */
export function buildOutline(groups: readonly GroupRow[], places: readonly EntryPlace[]): Outline {
  const children = new Map<string | null, Child[]>();
  const add = (parent: string | null, child: Child) => {
    const siblings = children.get(parent);
    if (siblings) siblings.push(child);
    else children.set(parent, [child]);
  };
  const topLevelKeys = new Set(groups.filter((group) => group.parent_id === null && group.technical_name === TOP_LEVEL_GROUP_NAME).map((group) => group.id));
  const parentOf = (groupId: string | null) => (groupId !== null && topLevelKeys.has(groupId) ? null : groupId);
  for (const group of groups) {
    if (!topLevelKeys.has(group.id)) add(parentOf(group.parent_id), { kind: 'group', name: group.technical_name, group });
  }
  for (const place of places) add(parentOf(place.groupId), { kind: 'entry', name: place.technicalName, id: place.id, groupId: place.groupId });

  const steps: OutlineStep[] = [];
  const entryIds: string[] = [];
  const entryGroupIds: string[] = [];
  const entryNames: string[] = [];
  const topLevelEntries: string[] = [];
  const walk = (parent: string | null) => {
    const level = (children.get(parent) ?? []).sort(byName);
    if (parent === null) requireDistinctNames(level);
    for (const child of level) {
      if (child.kind === 'entry') {
        if (parent === null) topLevelEntries.push(child.name);
        steps.push({ kind: 'entry', name: child.name, index: entryIds.length });
        entryIds.push(child.id);
        entryGroupIds.push(child.groupId);
        entryNames.push(child.name);
        continue;
      }
      steps.push({ kind: 'open', name: child.name });
      walk(child.group.id);
      steps.push(CLOSE);
    }
  };
  walk(null);
  return { steps, entryIds, entryGroupIds, entryNames, topLevelEntries };
}

function requireDistinctNames(sorted: readonly Child[]): void {
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i]!.name === sorted[i - 1]!.name) {
      throw conflict(`"${sorted[i]!.name}" is both a top-level key and a top-level group; rename one of them`);
    }
  }
}

/**
 * Every entry's path (group names from the top, then its own name) in output order, without reading a
 * text; walked afresh each time it is iterated.
 */
export function outlinePaths({ steps }: Outline): Iterable<readonly string[]> {
  return {
    *[Symbol.iterator]() {
      const groups: string[] = [];
      for (const step of steps) {
        if (step.kind === 'open') groups.push(step.name);
        else if (step.kind === 'close') groups.pop();
        else yield [...groups, step.name];
      }
    },
  };
}
