/** Writing groups: create, update (rename and move), delete. */
import { AppError, conflict, notFound, projectNotFound, validationError } from '../../errors.js';
import * as groups from '../../store/repositories/groups.js';
import { beginProjectWrite } from '../../store/content-writes/project-lock.js';
import * as groupRows from '../../store/content-writes/group-rows.js';
import type { Db, GroupRow } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import { guardConstraints } from '../shared/constraints.js';
import { requireName } from '../shared/name-check.js';
import { TOP_LEVEL_GROUP_NAME } from '../../names/technical-names.js';
import { groupPath } from '../../store/content-writes/change-log.js';
import { keyOf } from '../changes/change.js';
import { groupFields, removedGroup } from '../changes/fields.js';
import { changeSetFor, recordChanges } from '../changes/record-changes.js';
import { newOrderedId, nowIso } from '../shared/ids.js';
import { inTransaction, inWriteTransaction, unchanged } from '../shared/transaction.js';
import { beginGroupWrite } from './group-access.js';
import { groupView, MAX_GROUP_DEPTH, type GroupView } from './group-view.js';

const tooDeep = (depth: number) =>
  new AppError('ERR_HIERARCHY_LIMIT', `groups nest at most ${MAX_GROUP_DEPTH} deep; this would make depth ${depth}`);
const duplicateName = (name: string) =>
  `"${name}" is already used by a group or an entry under the same parent`;

/** The parent group, which must belong to the project. */
async function loadParent(db: Db, projectId: string, parentId: string): Promise<GroupRow> {
  const parent = await groups.findGroup(db, parentId);
  if (!parent || parent.project_id !== projectId) throw notFound('parent group');
  if (isTopLevelGroup(parent)) throw conflict('the group of top-level keys holds entries only: its sub-groups would be written beside the top-level groups');
  return parent;
}

/** The group that holds the project's top-level keys (an import makes it). */
export const isTopLevelGroup = (group: GroupRow) => group.parent_id === null && group.technical_name === TOP_LEVEL_GROUP_NAME;

/** Depth of a group placed directly under `parentId` (1 at the top level). */
async function depthUnder(db: Db, parentId: string | null): Promise<number> {
  return parentId === null ? 1 : (await groups.ancestorIds(db, parentId)).length + 2;
}

export interface GroupInput {
  technicalName: string;
  displayName: string;
  parentId?: string | null;
}

/** Creates a group at the top level or under a parent of the same project. */
export async function createGroup(db: Db, principal: Principal, projectId: string, input: GroupInput): Promise<GroupView> {
  return inTransaction(db, async (trx) => {
    const access = await loadProjectAccess(trx, principal, projectId);
    requireCapability(access, 'canEditGroups');
    requireName(input.technicalName, 'group', access.project.keyStyle, { topLevel: (input.parentId ?? null) === null });
    const now = nowIso();
    // A project deleted since the access check (PostgreSQL: while we waited for its lock) is gone
    // for this create too; without this the insert's foreign key would blame the parent group.
    const version = await beginProjectWrite(trx, projectId, now);
    if (version === undefined) throw projectNotFound();
    const parentId = input.parentId ?? null;
    if (parentId !== null) await loadParent(trx, projectId, parentId);
    // the parent's path gives the new group's depth and, below, its key: the chain is read once
    const parentPath = parentId === null ? [] : await groupPath(trx, parentId);
    const depth = parentPath.length + 1;
    if (depth > MAX_GROUP_DEPTH) throw tooDeep(depth);
    if (await groups.nameTakenUnderParent(trx, projectId, parentId, input.technicalName)) throw conflict(duplicateName(input.technicalName));
    const row: GroupRow = {
      id: newOrderedId(),
      project_id: projectId,
      parent_id: parentId,
      technical_name: input.technicalName,
      display_name: input.displayName,
      created_at: now,
    };
    await guardConstraints(() => groupRows.insertGroup(trx, row), duplicateName(input.technicalName), () => notFound('parent group'));
    const path = [...parentPath, row.technical_name];
    await recordChanges(trx, changeSetFor(principal, projectId, version, { createdAt: now }), [
      { target: 'group', op: 'create', groupId: row.id, key: keyOf(path), before: null, after: groupFields(row) },
    ]);
    return groupView(row);
  });
}

export interface GroupChanges {
  technicalName?: string | null;
  displayName?: string | null;
  parentId?: string | null;
}

/** Renames and/or moves a group; a move may not create a cycle (409) or nest too deep (400). */
export async function updateGroup(db: Db, principal: Principal, groupId: string, changes: GroupChanges): Promise<GroupView> {
  if (changes.technicalName == null && changes.displayName == null && changes.parentId === undefined) {
    throw validationError('nothing to update: give technicalName, displayName or parentId');
  }
  return inWriteTransaction(db, async (trx) => {
    const { group, access, version, path } = await beginGroupWrite(trx, principal, groupId, 'canEditGroups');
    if (isTopLevelGroup(group) && changes.parentId != null) throw conflict('the group of top-level keys stays at the top level');
    const parentId = changes.parentId === undefined ? group.parent_id : changes.parentId;
    const technicalName = changes.technicalName ?? group.technical_name;
    // A move checks the name too: `/` (an i18next namespace's folders) is allowed only at the top level.
    if (changes.technicalName != null || parentId !== group.parent_id) requireName(technicalName, 'group', access.project.keyStyle, { topLevel: parentId === null });
    if (parentId !== group.parent_id) await checkMove(trx, group, parentId);
    if (await groups.nameTakenUnderParent(trx, group.project_id, parentId, technicalName, group.id)) throw conflict(duplicateName(technicalName));
    const updated: GroupRow = { ...group, parent_id: parentId, technical_name: technicalName, display_name: changes.displayName ?? group.display_name };
    if (parentId === group.parent_id && technicalName === group.technical_name && updated.display_name === group.display_name) unchanged(groupView(group));
    await guardConstraints(
      () => groupRows.updateGroup(trx, groupId, { parent_id: parentId, technical_name: technicalName, display_name: updated.display_name }),
      duplicateName(technicalName),
      () => notFound('parent group'),
    );
    const parentPath = parentId === group.parent_id ? path.slice(0, -1) : parentId === null ? [] : await groupPath(trx, parentId);
    await recordChanges(trx, changeSetFor(principal, group.project_id, version), [
      { target: 'group', op: 'update', groupId, key: keyOf([...parentPath, technicalName]), before: groupFields(group), after: groupFields(updated) },
    ]);
    return groupView(updated);
  });
}

/** A move under `parentId` must stay in the project, make no cycle and keep the subtree within the depth limit. */
async function checkMove(db: Db, group: GroupRow, parentId: string | null): Promise<void> {
  if (parentId !== null) {
    await loadParent(db, group.project_id, parentId);
    if (parentId === group.id || (await groups.ancestorIds(db, parentId)).includes(group.id)) {
      throw conflict('a group cannot be moved under itself or one of its own sub-groups');
    }
  }
  const depth = (await depthUnder(db, parentId)) + (await groups.subtreeHeight(db, group.id)) - 1;
  if (depth > MAX_GROUP_DEPTH) throw tooDeep(depth);
}

/** Deletes a group with its sub-groups, entries and translations. */
export async function deleteGroup(db: Db, principal: Principal, groupId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const { group, version, path } = await beginGroupWrite(trx, principal, groupId, 'canEditGroups');
    const subtree = await groups.readGroupSubtree(trx, groupId);
    await groupRows.deleteGroup(trx, groupId);
    await recordChanges(trx, changeSetFor(principal, group.project_id, version), [
      { target: 'group', op: 'delete', groupId, key: keyOf(path), before: removedGroup(groupId, subtree.groups, subtree.entries, subtree.translations), after: null },
    ]);
  });
}
