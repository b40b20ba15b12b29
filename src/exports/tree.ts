/**
 * The outline of an export: groups and entries in the order every export writes them, computed once
 * per export, and the nested JSON text of one language written straight from it.
 */
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
  /** top-level groups in technical-name order */
  roots: OutlineGroup[];
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
  const roots = (childGroups.get(null) ?? []).map((root) => build(root, [root.technical_name])).sort(byName);
  const collect = (group: OutlineGroup) => {
    for (const item of group.items) {
      if (item.kind === 'group') collect(item);
      else ordered.push(item);
    }
  };
  for (const root of roots) collect(root);
  return { roots, entries: ordered };
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
