/** Reading groups: a page of children, one group, and the whole tree as summaries. */
import { notFound } from '../../errors.js';
import * as groups from '../../store/repositories/groups.js';
import type { Db } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import { pageOf, type Page, type PageRequest } from '../shared/page.js';
import { loadGroupAccess } from './group-access.js';
import { groupView, type GroupView } from './group-view.js';

/** Top-level groups of the project, or the direct children of `parentId`. */
export async function listGroups(
  db: Db,
  principal: Principal,
  projectId: string,
  parentId: string | undefined,
  page: PageRequest,
): Promise<Page<GroupView>> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadGroups');
  if (parentId !== undefined) {
    const parent = await groups.findGroup(db, parentId);
    if (!parent || parent.project_id !== projectId) throw notFound('parent group');
  }
  return pageOf(page, await groups.listChildGroups(db, projectId, parentId ?? null, page.limit, page.offset), groupView);
}

/** One group. */
export async function getGroup(db: Db, principal: Principal, groupId: string): Promise<GroupView> {
  return groupView((await loadGroupAccess(db, principal, groupId, 'canReadGroups')).group);
}

export interface GroupSummary {
  id: string;
  displayName: string;
  technicalName: string;
  breadcrumbs: string[];
  breadcrumbNames: string[];
}

/** Every group of the project with its ancestors, root first (depth-first, siblings by technical name). */
export async function summarizeGroups(db: Db, principal: Principal, projectId: string): Promise<GroupSummary[]> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadGroups');
  const all = await groups.listProjectGroups(db, projectId);
  const children = new Map<string | null, typeof all>();
  for (const group of all) {
    const siblings = children.get(group.parent_id);
    if (siblings) siblings.push(group);
    else children.set(group.parent_id, [group]);
  }
  const summaries: GroupSummary[] = [];
  const visit = (parentId: string | null, ids: string[], names: string[]) => {
    for (const group of children.get(parentId) ?? []) {
      summaries.push({ id: group.id, displayName: group.display_name, technicalName: group.technical_name, breadcrumbs: ids, breadcrumbNames: names });
      visit(group.id, [...ids, group.id], [...names, group.display_name]);
    }
  };
  visit(null, [], []);
  return summaries;
}
