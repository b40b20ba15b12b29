/**
 * Carries out a revert's plan in its transaction and says, as changes, what it did: the new change
 * set's record (so a revert can itself be reverted). Deletes go first (children before parents), then
 * what comes back (parents before children, under new ids), then the updates put back.
 */
import { groupPaths } from '../../groups/group-paths.js';
import * as writes from '../../../store/content-writes/bulk-rows.js';
import { deleteEntries, updateEntry } from '../../../store/content-writes/entry-rows.js';
import * as groups from '../../../store/content-writes/group-rows.js';
import { deleteTranslation, setReviewColumns, upsertTranslation } from '../../../store/content-writes/translation-rows.js';
import * as missing from '../../../store/repositories/missing-translations.js';
import { updateProject } from '../../../store/repositories/projects.js';
import type { Db } from '../../../store/schema.js';
import type { KeyStyle } from '../../../names/technical-names.js';
import { relistLanguages, type LanguageChange } from '../../projects/change-languages.js';
import { newOrderedId } from '../../shared/ids.js';
import {
  keyOf,
  type Change,
  type EntryFields,
  type GroupFields,
  type ProjectFields,
  type RemovedEntry,
  type RemovedGroup,
  type RemovedSubgroup,
  type TranslationFields,
} from '../change.js';
import { groupFields, removedEntryWith } from '../fields.js';
import { reviewColumnsOf } from '../../review/translation-state.js';
import type { RevertAction, Snapshot } from './plan-revert.js';

export interface AppliedRevert {
  changes: Change[];
  /** each entry or group brought back, once (its subtree came with it) */
  created: { target: 'group' | 'entry'; key: string; id: string }[];
  /** the project's languages put back: their missing rows follow after commit */
  languages: LanguageChange | undefined;
}

type Removed = Omit<RemovedEntry, 'groupId'>;

/**
 * Deletes what the plan undoes (its planner made sure that everything under each object goes too),
 * and records one change per root: a translation whose entry stays, an entry whose group stays, a
 * group whose parent stays, each `before` holding what went with it (CONTRACT "History").
 */
async function undoCreates(db: Db, snapshot: Snapshot, actions: readonly RevertAction[], applied: AppliedRevert): Promise<void> {
  const deletes = actions.filter((action): action is Extract<RevertAction, { kind: 'delete' }> => action.kind === 'delete');
  const entriesGoing = new Set(deletes.filter((a) => a.object.target === 'entry').map((a) => a.object.entryId!));
  const groupsGoing = new Set(deletes.filter((a) => a.object.target === 'group').map((a) => a.object.groupId!));
  const translationsOf = new Map<string, RemovedEntry['translations']>();
  const entriesOf = new Map<string, Removed[]>();
  const groupsOf = new Map<string, RemovedSubgroup[]>();
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => map.set(key, [...(map.get(key) ?? []), value]);
  const rootEntries: string[] = [];
  // Children come first in the plan's order: a translation before its entry, a sub-group before its group.
  for (const action of deletes) {
    const { object } = action;
    if (object.target === 'translation') {
      const { entryId, language } = object.object as { entryId: string; language: string };
      const before = action.current as unknown as TranslationFields;
      if (entriesGoing.has(entryId)) {
        push(translationsOf, entryId, { language, ...before });
        continue;
      }
      await deleteTranslation(db, entryId, language);
      await missing.markUntranslated(db, entryId, language);
      applied.changes.push({ target: 'translation', op: 'delete', entryId, groupId: object.groupId!, language, key: object.key ?? '', before, after: null });
    } else if (object.target === 'entry') {
      const row = snapshot.entries.get(object.entryId!)!;
      const removed = removedEntryWith(row, translationsOf.get(row.id) ?? []);
      if (groupsGoing.has(row.group_id)) {
        const { groupId: _group, ...withoutGroup } = removed;
        push(entriesOf, row.group_id, withoutGroup);
        continue;
      }
      rootEntries.push(row.id);
      applied.changes.push({ target: 'entry', op: 'delete', entryId: row.id, groupId: row.group_id, key: object.key ?? '', before: removed, after: null });
    } else if (object.target === 'group') {
      const row = snapshot.groups.get(object.groupId!)!;
      const removed: RemovedGroup = { ...groupFields(row), groups: groupsOf.get(row.id) ?? [], entries: entriesOf.get(row.id) ?? [] };
      if (row.parent_id !== null && groupsGoing.has(row.parent_id)) {
        const { parentId: _parent, ...withoutParent } = removed;
        push(groupsOf, row.parent_id, withoutParent);
        continue;
      }
      if (rootEntries.length > 0) await deleteEntries(db, rootEntries.splice(0));
      await groups.deleteGroup(db, row.id);
      applied.changes.push({ target: 'group', op: 'delete', groupId: row.id, key: object.key ?? '', before: removed, after: null });
    }
  }
  if (rootEntries.length > 0) await deleteEntries(db, rootEntries);
}

export async function applyRevert(db: Db, snapshot: Snapshot, actions: readonly RevertAction[], userId: string, now: string): Promise<AppliedRevert> {
  const projectId = snapshot.project.id;
  const applied: AppliedRevert = { changes: [], created: [], languages: undefined };
  const newIds = new Map<string, string>();
  const newPaths = new Map<string, string[]>();
  const pathOf = groupPaths((id) => snapshot.groups.get(id), newPaths);
  const entryKey = (entryId: string, fallback: string | null): string => {
    const entry = snapshot.entries.get(entryId);
    return entry ? keyOf([...pathOf(entry.group_id), entry.technical_name]) : (fallback ?? '');
  };

  // 1. Creates undone. What goes with a deleted entry or group is in its change's `before`, not a change of its own.
  await undoCreates(db, snapshot, actions, applied);

  // 2. Deleted entries and groups back under new ids, parents first, with their subtrees.
  const rows = { groups: [] as writes.Row[], entries: [] as writes.Row[], translations: [] as writes.Row[], missing: [] as writes.Row[] };
  const languages = snapshot.project.translationLanguages;
  const addEntry = (removed: Removed, groupId: string, groupPath: readonly string[]): string => {
    const id = newOrderedId();
    const key = keyOf([...groupPath, removed.technicalName]);
    rows.entries.push([id, projectId, groupId, removed.technicalName, removed.baseTerm, removed.baseTerm.toLowerCase(), removed.contextInfo, removed.arbMetadata, now, now]);
    applied.changes.push({
      target: 'entry',
      op: 'create',
      entryId: id,
      groupId,
      key,
      before: null,
      after: { technicalName: removed.technicalName, baseTerm: removed.baseTerm, contextInfo: removed.contextInfo, groupId },
    });
    const given = new Set<string>();
    for (const translation of removed.translations) {
      if (!languages.includes(translation.language)) continue;
      given.add(translation.language);
      // Its state and review come back with it; a new entry's base term has no revisions, so nothing is outdated.
      const { language: _language, ...fields } = translation;
      const after: TranslationFields = { ...fields, outdated: false };
      const review = reviewColumnsOf(after, 0, userId, now);
      rows.translations.push([newOrderedId(), id, translation.language, translation.text, userId, now, now, review.state, review.reviewed_text, review.reviewed_by, review.reviewed_at, review.reviewed_revision === null ? null : String(review.reviewed_revision)]);
      applied.changes.push({ target: 'translation', op: 'create', entryId: id, groupId, language: translation.language, key, before: null, after });
    }
    for (const language of languages) if (!given.has(language)) rows.missing.push([id, language, projectId, now]);
    return id;
  };
  const addGroup = (removed: RemovedSubgroup, parentId: string | null, parentPath: readonly string[]): string => {
    const id = newOrderedId();
    const path = [...parentPath, removed.technicalName];
    newPaths.set(id, path);
    rows.groups.push([id, projectId, parentId, removed.technicalName, removed.displayName, now]);
    applied.changes.push({ target: 'group', op: 'create', groupId: id, key: keyOf(path), before: null, after: { technicalName: removed.technicalName, displayName: removed.displayName, parentId } });
    for (const child of removed.groups) addGroup(child, id, path);
    for (const entry of removed.entries) addEntry(entry, id, path);
    return id;
  };
  for (const action of actions) {
    if (action.kind !== 'recreate') continue;
    const { object } = action;
    if (object.target === 'group') {
      const removed = action.to as unknown as RemovedGroup;
      const parentId = removed.parentId === null ? null : (newIds.get(removed.parentId) ?? removed.parentId);
      const id = addGroup(removed, parentId, parentId === null ? [] : pathOf(parentId));
      newIds.set(object.groupId!, id);
      applied.created.push({ target: 'group', key: keyOf(newPaths.get(id)!), id });
    } else if (object.target === 'entry') {
      const removed = action.to as unknown as RemovedEntry;
      const groupId = newIds.get(removed.groupId) ?? removed.groupId;
      const id = addEntry(removed, groupId, pathOf(groupId));
      newIds.set(object.entryId!, id);
      applied.created.push({ target: 'entry', key: keyOf([...pathOf(groupId), removed.technicalName]), id });
    }
  }
  await writes.insertGroupRows(db, rows.groups.length, (i) => rows.groups[i]!);
  await writes.insertEntryRows(db, rows.entries.length, (i) => rows.entries[i]!);
  await writes.insertReviewedTranslationRows(db, rows.translations.length, (i) => rows.translations[i]!);
  await writes.insertMissingRows(db, rows.missing.length, (i) => rows.missing[i]!);

  // 3. Updates (and removed translations) put back: entries before translations (plan-revert's order).
  // A base term put back raises its entry's base revision: a translation put back after it counts from the new one.
  const raisedRevisions = new Map<string, number>();
  for (const action of actions) {
    if (action.kind !== 'restore') continue;
    const { object } = action;
    switch (object.target) {
      case 'project': {
        const to = action.to as unknown as ProjectFields;
        const from = action.current as unknown as ProjectFields;
        const languagesChanged = JSON.stringify(to.translationLanguages) !== JSON.stringify(from.translationLanguages);
        if (languagesChanged) applied.languages = await relistLanguages(db, projectId, to.translationLanguages);
        await updateProject(db, projectId, { name: to.name, baseLanguage: to.baseLanguage, translationLanguages: to.translationLanguages, keyStyle: to.keyStyle as KeyStyle });
        applied.changes.push({ target: 'project', op: 'update', key: null, before: from, after: to });
        break;
      }
      case 'group': {
        const to = action.to as unknown as GroupFields;
        await groups.updateGroup(db, object.groupId!, { technical_name: to.technicalName, display_name: to.displayName, parent_id: to.parentId });
        const path = [...(to.parentId === null ? [] : pathOf(to.parentId)), to.technicalName];
        newPaths.set(object.groupId!, path);
        applied.changes.push({ target: 'group', op: 'update', groupId: object.groupId!, key: keyOf(path), before: action.current as unknown as GroupFields, after: to });
        break;
      }
      case 'entry': {
        const to = action.to as unknown as EntryFields & { arbMetadata?: string | null };
        // The ARB metadata goes back (and is recorded) only where the change recorded it. A base term put
        // back is a base term changed: the translations written since were written against the other one.
        const withMetadata = 'arbMetadata' in to;
        const newBaseTerm = to.baseTerm !== (action.current as unknown as EntryFields).baseTerm;
        if (newBaseTerm) raisedRevisions.set(object.entryId!, (snapshot.entries.get(object.entryId!)?.base_revision ?? 0) + 1);
        await updateEntry(db, object.entryId!, {
          technical_name: to.technicalName,
          base_term: to.baseTerm,
          base_term_key: to.baseTerm.toLowerCase(),
          context_info: to.contextInfo,
          ...(withMetadata ? { arb_metadata: to.arbMetadata ?? null } : {}),
          updated_at: now,
        }, newBaseTerm);
        const { arbMetadata, ...current } = action.current as unknown as EntryFields & { arbMetadata: string | null };
        const before = withMetadata ? { ...current, arbMetadata } : current;
        const key = keyOf([...pathOf(to.groupId), to.technicalName]);
        applied.changes.push({ target: 'entry', op: 'update', entryId: object.entryId!, groupId: to.groupId, key, before, after: to });
        break;
      }
      case 'translation': {
        const to = action.to as unknown as TranslationFields;
        const { entryId: loggedEntryId, language } = object.object as { entryId: string; language: string };
        const entryId = newIds.get(loggedEntryId) ?? loggedEntryId;
        const stored = snapshot.translations.get(`${entryId}:${language}`);
        // An entry brought back by this revert is new: its base term has no revisions yet.
        const revision = raisedRevisions.get(entryId) ?? snapshot.entries.get(entryId)?.base_revision ?? 0;
        // A state put back keeps the text's updatedAt (its ETag): only a text changes it.
        if (stored?.translation !== to.text) {
          await upsertTranslation(db, {
            id: stored?.id ?? newOrderedId(),
            entry_id: entryId,
            language,
            translation: to.text,
            translator_id: userId,
            created_at: stored?.created_at ?? now,
            updated_at: now,
            base_revision: revision,
          });
        }
        await setReviewColumns(db, entryId, language, reviewColumnsOf(to, revision, userId, now));
        await missing.markTranslated(db, entryId, language);
        const groupId = snapshot.entries.get(entryId)?.group_id ?? object.groupId!;
        const where = { target: 'translation', entryId, groupId, language, key: entryKey(entryId, object.key) } as const;
        const current = action.current as unknown as TranslationFields | null;
        applied.changes.push(current ? { ...where, op: 'update', before: current, after: to } : { ...where, op: 'create', before: null, after: to });
        break;
      }
    }
  }
  return applied;
}
