/**
 * The three-way rule of a revert (CONTRACT "History"), per netted object: the object as it is now
 * equals what the change wrote → put back what it replaced; equals what it replaced → unchanged
 * (already undone); anything else → a conflict, never overwritten. Made inside the revert's
 * transaction, under the project's lock, so a write racing the revert is either seen here or waits.
 */
import * as groups from '../../../store/repositories/groups.js';
import type { ProjectRecord } from '../../../store/repositories/projects.js';
import { entriesByIds, entryIdsOfGroups, listRestoringCreates, translationsOfEntries } from '../../../store/repositories/revert-reads.js';
import type { Db, EntryRow, GroupRow, TranslationRow } from '../../../store/schema.js';
import { fitsKeyStyle, type KeyStyle } from '../../../names/technical-names.js';
import { entryFields, groupFields } from '../fields.js';
import { translationFields } from '../../review/translation-state.js';
import { identityOf, type NettedObject } from './net-changes.js';

type Fields = Record<string, unknown>;

/** What the revert does to one object. */
export type RevertAction =
  /** an update (or a removed translation) put back: `to` over `current` */
  | { kind: 'restore'; object: NettedObject; current: Fields | null; to: Fields }
  /** a deleted entry or group brought back under a new id, with what went with it */
  | { kind: 'recreate'; object: NettedObject; to: Fields }
  /** a create undone */
  | { kind: 'delete'; object: NettedObject; current: Fields };

export interface RevertConflict {
  object: NettedObject;
  /** what the change wrote (its netted `after`) */
  expected: Fields | null;
  current: Fields | null;
}

export interface RevertPlan {
  actions: RevertAction[];
  unchanged: NettedObject[];
  conflicts: RevertConflict[];
}

/** The fields the three-way rule compares: a translation's text and state; every field of the others. */
const COMPARED: Record<NettedObject['target'], readonly string[]> = {
  translation: ['text', 'state'],
  entry: ['technicalName', 'baseTerm', 'contextInfo', 'groupId'],
  group: ['technicalName', 'displayName', 'parentId'],
  project: ['name', 'baseLanguage', 'translationLanguages', 'keyStyle'],
};

function same(target: NettedObject['target'], a: Fields | null, b: Fields | null): boolean {
  if (a === null || b === null) return a === b;
  const equal = (field: string) => JSON.stringify(a[field] ?? null) === JSON.stringify(b[field] ?? null);
  // An entry's ARB metadata is recorded only by the imports that change it: compared where both sides have it.
  if (target === 'entry' && 'arbMetadata' in a && 'arbMetadata' in b && !equal('arbMetadata')) return false;
  return COMPARED[target].every(equal);
}

/**
 * The project's rows the revert's objects touch, read in a few batched statements (an import's revert
 * looks at a million translations: one read each would be a million round trips on PostgreSQL).
 */
export interface Snapshot {
  project: ProjectRecord;
  /** every group of the project */
  groups: Map<string, GroupRow>;
  /** the entries the objects name, and those of the groups they name */
  entries: Map<string, EntryRow>;
  /** `entryId:language` → the translation, for every entry above */
  translations: Map<string, TranslationRow>;
  /** entry id → the languages it has a translation in */
  languagesOf: Map<string, string[]>;
  /** group id → its sub-groups and (of the entries above) its entries */
  childrenOf: Map<string, { groups: string[]; entries: string[] }>;
}

export async function loadSnapshot(db: Db, project: ProjectRecord, objects: readonly NettedObject[]): Promise<Snapshot> {
  const groupRows = await groups.listProjectGroups(db, project.id);
  const entryIds = new Set<string>();
  const groupIds: string[] = [];
  for (const object of objects) {
    if (object.object.target === 'entry' || object.object.target === 'translation') entryIds.add(object.object.entryId);
    if (object.object.target === 'group' && object.before === null) groupIds.push(object.object.groupId);
  }
  for (const row of await entryIdsOfGroups(db, groupIds)) entryIds.add(row.id);
  const entryRows = await entriesByIds(db, [...entryIds]);
  const translationRows = await translationsOfEntries(db, entryRows.map((row) => row.id));
  const languagesOf = new Map<string, string[]>();
  for (const row of translationRows) languagesOf.set(row.entry_id, [...(languagesOf.get(row.entry_id) ?? []), row.language]);
  const childrenOf = new Map<string, { groups: string[]; entries: string[] }>();
  const childrenOfGroup = (id: string) => childrenOf.get(id) ?? childrenOf.set(id, { groups: [], entries: [] }).get(id)!;
  for (const row of groupRows) if (row.parent_id !== null) childrenOfGroup(row.parent_id).groups.push(row.id);
  for (const row of entryRows) childrenOfGroup(row.group_id).entries.push(row.id);
  return {
    project,
    groups: new Map(groupRows.map((row) => [row.id, row])),
    entries: new Map(entryRows.map((row) => [row.id, row])),
    translations: new Map(translationRows.map((row) => [`${row.entry_id}:${row.language}`, row])),
    languagesOf,
    childrenOf,
  };
}

/** The object as it is now, in the log's fields; null when it is gone. */
function currentOf(snapshot: Snapshot, object: NettedObject): Fields | null {
  const found = object.object;
  switch (found.target) {
    case 'translation': {
      const row = snapshot.translations.get(`${found.entryId}:${found.language}`);
      return row ? { ...translationFields(row, snapshot.entries.get(found.entryId)?.base_revision ?? 0) } : null;
    }
    case 'entry': {
      const row = snapshot.entries.get(found.entryId);
      return row ? { ...entryFields(row), arbMetadata: row.arb_metadata } : null;
    }
    case 'group': {
      const row = snapshot.groups.get(found.groupId);
      return row ? { ...groupFields(row) } : null;
    }
    case 'project': {
      const { name, baseLanguage, translationLanguages, keyStyle } = snapshot.project;
      return { name, baseLanguage, translationLanguages, keyStyle };
    }
  }
}

/** The object now as the conflict shows it: in the shape of the change's fields (an entry's ARB metadata only where the change has it). */
function shown(object: NettedObject, now: Fields | null): Fields | null {
  if (now === null || object.target !== 'entry' || 'arbMetadata' in (object.after ?? object.before ?? {})) return now;
  const { arbMetadata: _metadata, ...fields } = now;
  return fields;
}

/** Deeper keys later: parents are brought back before their children, children undone before parents. */
const depth = (object: NettedObject) => (object.key ?? '').split('.').length;
const RANK = { project: 0, group: 1, entry: 2, translation: 3 } as const;

/** Plans the revert of `objects` (netted changes of set `setId`) against the project as `snapshot` holds it. */
export async function planRevert(db: Db, snapshot: Snapshot, setId: string, objects: readonly NettedObject[]): Promise<RevertPlan> {
  const projectId = snapshot.project.id;
  // A translation comes back only in a language the project still has.
  const languages = new Set(snapshot.project.translationLanguages);
  const plan: RevertPlan = { actions: [], unchanged: [], conflicts: [] };
  const current = new Map<NettedObject, Fields | null>();
  for (const object of objects) current.set(object, currentOf(snapshot, object));
  const conflict = (object: NettedObject) => plan.conflicts.push({ object, expected: object.after, current: shown(object, current.get(object) ?? null) });

  // Creates undone, children first: an object goes only if everything under it now goes with it.
  const deleting = new Set<string>();
  const creates = objects.filter((object) => object.before === null && object.after !== null);
  creates.sort((a, b) => RANK[b.target] - RANK[a.target] || depth(b) - depth(a));
  for (const object of creates) {
    const now = current.get(object) ?? null;
    if (now === null) {
      plan.unchanged.push(object);
      continue;
    }
    if (!same(object.target, now, object.after) || !nothingAddedUnder(snapshot, object, deleting)) {
      conflict(object);
      continue;
    }
    deleting.add(identityOf(object.object));
    plan.actions.push({ kind: 'delete', object, current: now });
  }

  // Deletes undone, parents first; a delete that a standing revert already undid stays undone.
  const restored = await standingRestores(db, setId);
  const recreating = new Set<string>();
  const deletes = objects.filter((object) => object.before !== null && object.after === null);
  deletes.sort((a, b) => RANK[a.target] - RANK[b.target] || depth(a) - depth(b));
  for (const object of deletes) {
    const now = current.get(object) ?? null;
    if (object.target === 'translation') {
      if (now !== null) {
        if (same('translation', now, object.before)) plan.unchanged.push(object);
        else conflict(object);
        continue;
      }
      const entryBack = object.entryId !== null && (recreating.has(`entry:${object.entryId}`) || snapshot.entries.has(object.entryId));
      if (entryBack && languages.has(object.language!)) plan.actions.push({ kind: 'restore', object, current: null, to: object.before! });
      else conflict(object);
      continue;
    }
    const restore = restored.get(`${object.target}:${object.key}`);
    if (restore && (await stillThere(db, restore))) {
      plan.unchanged.push(object);
      continue;
    }
    if (!(await placeFree(db, snapshot, object, recreating))) {
      conflict(object);
      continue;
    }
    recreating.add(identityOf(object.object));
    plan.actions.push({ kind: 'recreate', object, to: object.before! });
  }

  // Updates put back.
  const updates = objects.filter((object) => object.before !== null && object.after !== null);
  updates.sort((a, b) => RANK[a.target] - RANK[b.target] || depth(a) - depth(b));
  for (const object of updates) {
    const now = current.get(object) ?? null;
    if (same(object.target, now, object.before)) plan.unchanged.push(object);
    else if (!same(object.target, now, object.after) || !(await fitsAgain(db, snapshot, object))) conflict(object);
    else plan.actions.push({ kind: 'restore', object, current: now, to: object.before! });
  }
  // A create and a delete of the same object in one set net to nothing.
  for (const object of objects) if (object.before === null && object.after === null) plan.unchanged.push(object);
  return plan;
}

/** Whatever is under a created entry or group now is also being undone (its translations; its sub-groups and entries). */
function nothingAddedUnder(snapshot: Snapshot, object: NettedObject, deleting: ReadonlySet<string>): boolean {
  const found = object.object;
  if (found.target === 'entry') return (snapshot.languagesOf.get(found.entryId) ?? []).every((language) => deleting.has(`translation:${found.entryId}:${language}`));
  if (found.target !== 'group') return true;
  const children = snapshot.childrenOf.get(found.groupId);
  return !children || (children.groups.every((id) => deleting.has(`group:${id}`)) && children.entries.every((id) => deleting.has(`entry:${id}`)));
}

/** The creates of the reverts of `setId` still standing, by target and key (the restored object's id). */
async function standingRestores(db: Db, setId: string): Promise<Map<string, { target: string; id: string }>> {
  const restores = new Map<string, { target: string; id: string }>();
  for (const row of await listRestoringCreates(db, setId)) {
    if (row.target !== 'entry' && row.target !== 'group') continue;
    const id = row.target === 'entry' ? row.entry_id : row.group_id;
    if (id !== null) restores.set(`${row.target}:${row.key}`, { target: row.target, id });
  }
  return restores;
}

async function stillThere(db: Db, restored: { target: string; id: string }): Promise<boolean> {
  if (restored.target === 'group') return (await groups.findGroup(db, restored.id)) !== undefined;
  return (await entriesByIds(db, [restored.id])).length > 0;
}

/** A deleted entry or group comes back where its parent still is (or comes back too) and its name is free. */
async function placeFree(db: Db, snapshot: Snapshot, object: NettedObject, recreating: ReadonlySet<string>): Promise<boolean> {
  const projectId = snapshot.project.id;
  const before = object.before!;
  const name = String(before.technicalName);
  const parentId = object.target === 'entry' ? String(before.groupId) : ((before.parentId as string | null) ?? null);
  if (parentId !== null && recreating.has(`group:${parentId}`)) return true;
  if (parentId !== null && !snapshot.groups.has(parentId)) return false;
  return !(await groups.nameTakenUnderParent(db, projectId, parentId, name));
}

/**
 * An update put back must fit the project as it is now: a rename or move needs the old name free under
 * the old parent (still there, not under the group itself); a key style back to camelCase needs every
 * name to fit it.
 */
async function fitsAgain(db: Db, snapshot: Snapshot, object: NettedObject): Promise<boolean> {
  const projectId = snapshot.project.id;
  const before = object.before!;
  const after = object.after!;
  if (object.target === 'project') {
    if (before.keyStyle === after.keyStyle) return true;
    return (await groups.listProjectNames(db, projectId)).every(({ kind, name }) => fitsKeyStyle(name, kind, before.keyStyle as KeyStyle));
  }
  if (object.target === 'entry') {
    if (before.technicalName === after.technicalName) return true;
    return !(await groups.nameTakenUnderParent(db, projectId, String(before.groupId), String(before.technicalName), object.entryId!));
  }
  if (object.target !== 'group') return true;
  if (before.technicalName === after.technicalName && before.parentId === after.parentId) return true;
  const parentId = (before.parentId as string | null) ?? null;
  if (parentId !== null) {
    if (!snapshot.groups.has(parentId)) return false;
    if (parentId === object.groupId || (await groups.ancestorIds(db, parentId)).includes(object.groupId!)) return false;
  }
  return !(await groups.nameTakenUnderParent(db, projectId, parentId, String(before.technicalName), object.groupId!));
}
