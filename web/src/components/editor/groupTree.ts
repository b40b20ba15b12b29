/** The group tree, built from the flat groups summary (a group's parent is its last breadcrumb). */
import type { GroupSummary } from '../../types';

export interface TreeNode {
  group: GroupSummary;
  parentId: string | null;
  children: TreeNode[];
}

/** One row of the tree as drawn: the nodes whose ancestors are all expanded, in order. */
export interface VisibleNode {
  node: TreeNode;
  level: number;
  setSize: number;
  posInSet: number;
}

const byName = (a: TreeNode, b: TreeNode): number => a.group.displayName.localeCompare(b.group.displayName);

export function buildTree(groups: GroupSummary[]): TreeNode[] {
  const nodes = new Map<string, TreeNode>();
  for (const group of groups) nodes.set(group.id, { group, parentId: group.breadcrumbs.at(-1) ?? null, children: [] });
  const roots: TreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    (parent ? parent.children : roots).push(node);
  }
  const sort = (list: TreeNode[]): void => {
    list.sort(byName);
    for (const node of list) sort(node.children);
  };
  sort(roots);
  return roots;
}

export function visibleNodes(roots: TreeNode[], expanded: ReadonlySet<string>): VisibleNode[] {
  const rows: VisibleNode[] = [];
  const walk = (list: TreeNode[], level: number): void => {
    list.forEach((node, index) => {
      rows.push({ node, level, setSize: list.length, posInSet: index + 1 });
      if (node.children.length > 0 && expanded.has(node.group.id)) walk(node.children, level + 1);
    });
  };
  walk(roots, 1);
  return rows;
}

/** Ids of every group below `id` (children, their children, …). */
export function descendantIds(groups: GroupSummary[], id: string): string[] {
  return groups.filter((group) => group.breadcrumbs.includes(id)).map((group) => group.id);
}
