/** Walking a snapshot's tree: the order every export writes keys in. */
import type { ExportEntry, GroupNode, LanguageContent } from './snapshot.js';

export type TreeItem = { kind: 'group'; group: GroupNode } | { kind: 'entry'; entry: ExportEntry };

/**
 * A group's sub-groups and entries merged in technical-name order (they share one name space), so
 * the output order is alphabetical at every level and the same data always gives the same bytes.
 */
export function childrenOf(group: GroupNode, content: LanguageContent): TreeItem[] {
  const items: TreeItem[] = [
    ...group.children.map((child) => ({ kind: 'group' as const, group: child })),
    ...(content.get(group.id) ?? []).map((entry) => ({ kind: 'entry' as const, entry })),
  ];
  const nameOf = (item: TreeItem) => (item.kind === 'group' ? item.group.technicalName : item.entry.technicalName);
  return items.sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
}

/** The nested object of one language: group names → … → entry name → value (empty groups are {}). */
export function nestedMessages(roots: GroupNode[], content: LanguageContent): Record<string, unknown> {
  const build = (group: GroupNode): Record<string, unknown> => {
    const object: Record<string, unknown> = {};
    for (const item of childrenOf(group, content)) {
      if (item.kind === 'group') object[item.group.technicalName] = build(item.group);
      else object[item.entry.technicalName] = item.entry.text;
    }
    return object;
  };
  const top: Record<string, unknown> = {};
  for (const root of roots) top[root.technicalName] = build(root);
  return top;
}

/** Calls `visit` with every entry's path (group names, then the entry name), in output order. */
export function forEachEntry(roots: GroupNode[], content: LanguageContent, visit: (path: string[], entry: ExportEntry) => void): void {
  const walk = (group: GroupNode, path: string[]) => {
    for (const item of childrenOf(group, content)) {
      if (item.kind === 'group') walk(item.group, [...path, item.group.technicalName]);
      else visit([...path, item.entry.technicalName], item.entry);
    }
  };
  for (const root of roots) walk(root, [root.technicalName]);
}
