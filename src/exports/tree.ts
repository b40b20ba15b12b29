/**
 * The outline of an export: groups and entries in the order every export writes them, computed once
 * per export, and the nested JSON text of one language written straight from it.
 */
import { conflict } from '../errors.js';
import { TOP_LEVEL_GROUP_NAME } from '../domain/shared/technical-names.js';
import { quote } from './output.js';
import type { EntryTexts } from './snapshot.js';

export interface OutlineGroup {
  kind: 'group';
  name: string;
  items: OutlineItem[];
}

export interface OutlineEntry {
  kind: 'entry';
  name: string;
  entry: EntryTexts;
  /** group technical names from the top, then the entry's own */
  path: string[];
}

export type OutlineItem = OutlineGroup | OutlineEntry;

export interface Outline {
  /** the top level in technical-name order: the top-level groups, and the entries of the top-level keys' group */
  roots: OutlineItem[];
  /** every entry in output order (depth first, a level's groups and entries merged by name) */
  entries: OutlineEntry[];
}

interface GroupRow {
  id: string;
  parent_id: string | null;
  technical_name: string;
}

const byName = (a: OutlineItem, b: OutlineItem) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * At every level, sub-groups and entries merged in technical-name order (they share one name
 * space), so the output is alphabetical at every level and the same data always gives the same bytes.
 */
export function buildOutline(groups: readonly GroupRow[], entries: readonly EntryTexts[]): Outline {
  const childGroups = new Map<string | null, GroupRow[]>();
  for (const group of groups) {
    const siblings = childGroups.get(group.parent_id);
    if (siblings) siblings.push(group);
    else childGroups.set(group.parent_id, [group]);
  }
  const entriesOf = new Map<string, EntryTexts[]>();
  for (const entry of entries) {
    const list = entriesOf.get(entry.groupId);
    if (list) list.push(entry);
    else entriesOf.set(entry.groupId, [entry]);
  }
  const ordered: OutlineEntry[] = [];
  const build = (group: GroupRow, path: string[]): OutlineGroup => {
    const items: OutlineItem[] = [
      ...(childGroups.get(group.id) ?? []).map((child) => build(child, [...path, child.technical_name])),
      ...(entriesOf.get(group.id) ?? []).map((entry): OutlineEntry => ({ kind: 'entry', name: entry.technicalName, entry, path: [...path, entry.technicalName] })),
    ];
    return { kind: 'group', name: group.technical_name, items: items.sort(byName) };
  };
  // The top-level keys' group (empty name) is no level of its own: its entries are the top level's.
  const roots = (childGroups.get(null) ?? [])
    .flatMap((root) => (root.technical_name === TOP_LEVEL_GROUP_NAME ? build(root, []).items : [build(root, [root.technical_name])]))
    .sort(byName);
  requireDistinctNames(roots);
  const collect = (items: readonly OutlineItem[]) => {
    for (const item of items) {
      if (item.kind === 'group') collect(item.items);
      else ordered.push(item);
    }
  };
  collect(roots);
  return { roots, entries: ordered };
}

/** A top-level entry and a top-level group of one name would be one key in every export: refused (409). */
function requireDistinctNames(sorted: readonly OutlineItem[]): void {
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i]!.name === sorted[i - 1]!.name) {
      throw conflict(`"${sorted[i]!.name}" is both a top-level key and a top-level group; rename one of them`);
    }
  }
}

/** What an entry writes in a nested object: one text, or several keys (`name` + suffix → text, e.g. i18next's plural forms). */
export type EntryValue = string | ReadonlyArray<readonly [suffix: string, text: string]>;

/**
 * The nested object of one language as JSON text (group names → … → entry name → text; empty groups
 * are {}), byte for byte what JSON.stringify(object, null, pretty ? 2 : 0) gives, indented as if
 * nested `depth` levels deep. Written directly: a 100,000-key object costs more to build than to print.
 */
export function nestedJson(groups: readonly OutlineItem[], valueOf: (entry: EntryTexts) => EntryValue, pretty: boolean, depth = 0): string {
  if (groups.length === 0) return '{}';
  const inner = pretty ? `\n${'  '.repeat(depth + 1)}` : '';
  const colon = pretty ? ': ' : ':';
  let text = '{';
  let first = true;
  const add = (name: string, value: string) => {
    text += `${first ? '' : ','}${inner}${quote(name)}${colon}${value}`;
    first = false;
  };
  for (const item of groups) {
    if (item.kind === 'group') {
      add(item.name, nestedJson(item.items, valueOf, pretty, depth + 1));
      continue;
    }
    const value = valueOf(item.entry);
    if (typeof value === 'string') add(item.name, quote(value));
    else for (const [suffix, form] of value) add(item.name + suffix, quote(form));
  }
  return `${text}${pretty ? `\n${'  '.repeat(depth)}` : ''}}`;
}
