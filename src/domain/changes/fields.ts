/** The stored rows in the change log's words (CONTRACT "History": the `before`/`after` of each target). */
import type { EntryRow, GroupRow, TranslationRow } from '../../store/schema.js';
import type { EntryFields, GroupFields, RemovedEntry, RemovedGroup, RemovedTranslation } from './change.js';
import { translationFields } from '../review/translation-state.js';

export const entryFields = (row: EntryRow): EntryFields => ({
  technicalName: row.technical_name,
  baseTerm: row.base_term,
  contextInfo: row.context_info,
  groupId: row.group_id,
});

export const groupFields = (row: GroupRow): GroupFields => ({
  technicalName: row.technical_name,
  displayName: row.display_name,
  parentId: row.parent_id,
});

/** A deleted entry's `before`: its fields, ARB metadata and translations (by language). */
export const removedEntry = (row: EntryRow, translations: readonly TranslationRow[]): RemovedEntry =>
  removedEntryWith(row, translations.map((translation) => ({ language: translation.language, ...translationFields(translation, row.base_revision) })));

/** A deleted entry's `before` from its row and its translations' fields (a revert has those, not rows). */
export function removedEntryWith(row: EntryRow, translations: readonly RemovedTranslation[]): RemovedEntry {
  return {
    ...entryFields(row),
    arbMetadata: row.arb_metadata,
    translations: [...translations].sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : 0)),
  };
}

/** A deleted group's `before`: its fields and its whole subtree, from the rows of the subtree (the group's among them). */
export function removedGroup(rootId: string, groups: readonly GroupRow[], entries: readonly EntryRow[], translations: readonly TranslationRow[]): RemovedGroup {
  const translationsOf = new Map<string, TranslationRow[]>();
  for (const row of translations) translationsOf.set(row.entry_id, [...(translationsOf.get(row.entry_id) ?? []), row]);
  const entriesOf = new Map<string, EntryRow[]>();
  for (const row of entries) entriesOf.set(row.group_id, [...(entriesOf.get(row.group_id) ?? []), row]);
  const childrenOf = new Map<string, GroupRow[]>();
  for (const row of groups) if (row.parent_id !== null) childrenOf.set(row.parent_id, [...(childrenOf.get(row.parent_id) ?? []), row]);
  const byName = <T extends { technical_name: string }>(list: readonly T[]) => [...list].sort((a, b) => (a.technical_name < b.technical_name ? -1 : 1));
  const subtree = (group: GroupRow): RemovedGroup => ({
    ...groupFields(group),
    groups: byName(childrenOf.get(group.id) ?? []).map((child) => {
      const { parentId: _parent, ...rest } = subtree(child);
      return rest;
    }),
    entries: byName(entriesOf.get(group.id) ?? []).map((entry) => {
      const { groupId: _group, ...rest } = removedEntry(entry, translationsOf.get(entry.id) ?? []);
      return rest;
    }),
  });
  const root = groups.find((group) => group.id === rootId);
  if (!root) throw new Error(`the subtree of group ${rootId} was read without it`);
  return subtree(root);
}
