/**
 * A group's path: the technical names from the top-level group down to it, the first part of its
 * entries' keys. Worked out once per group of a batch (an import's, a revert's, a bulk review's).
 */

/** A group as far as its path needs it. */
export interface PathedGroup {
  id: string;
  parent_id: string | null;
  technical_name: string;
}

/**
 * Each group's path, from `lookup` (a group it does not find has the empty path). `known` holds paths
 * already fixed, and keeps those worked out here (a revert sets there the paths it moves groups to);
 * `pathless` is a group that is no level of the tree (the import's group of top-level keys).
 */
export function groupPaths(lookup: (groupId: string) => PathedGroup | undefined, known = new Map<string, string[]>(), pathless?: string): (groupId: string) => string[] {
  const pathOf = (groupId: string): string[] => {
    const fixed = known.get(groupId);
    if (fixed) return fixed;
    const group = lookup(groupId);
    const path = !group || group.id === pathless ? [] : [...(group.parent_id === null ? [] : pathOf(group.parent_id)), group.technical_name];
    known.set(groupId, path);
    return path;
  };
  return pathOf;
}
