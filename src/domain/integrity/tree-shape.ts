/** Cycles and over-deep nesting in the group tree, found from the parent links alone (pure). */
import { problem, type IntegrityProblem } from '../../store/integrity/problem.js';

export interface ParentLink {
  id: string;
  parent_id: string | null;
}

/**
 * Walks each group up to its root. A walk that meets itself again has found a cycle (reported
 * once, as the ring of ids); one that ends at a root has found the group's depth (1 at the top).
 * A parent missing from `groups` ends the walk there: the dangling link is reported elsewhere.
 */
export function treeShapeProblems(groups: readonly ParentLink[], maxDepth: number): IntegrityProblem[] {
  const parentOf = new Map(groups.map((group) => [group.id, group.parent_id]));
  const problems: IntegrityProblem[] = [];
  const reportedRings = new Set<string>();
  for (const group of groups) {
    const path = [group.id];
    const onPath = new Set(path);
    let parent = group.parent_id;
    let ring: string[] | undefined;
    while (parent !== null && parentOf.has(parent)) {
      if (onPath.has(parent)) {
        ring = path.slice(path.indexOf(parent));
        break;
      }
      path.push(parent);
      onPath.add(parent);
      parent = parentOf.get(parent) ?? null;
    }
    if (ring) {
      const key = [...ring].sort().join(' ');
      if (!reportedRings.has(key)) {
        reportedRings.add(key);
        problems.push(problem('group-cycle', `groups form a cycle: ${[...ring, ring[0]].join(' → ')}`));
      }
    } else if (path.length > maxDepth) {
      problems.push(problem('group-depth', `group ${group.id} has depth ${path.length}, more than ${maxDepth}`));
    }
  }
  return problems;
}
