/** Writing entries: create, update, delete. */
import { conflict, notFound, validationError } from '../../errors.js';
import * as entries from '../../store/repositories/entries.js';
import { nameTakenUnderParent } from '../../store/repositories/groups.js';
import { insertNewEntry } from '../../store/content-writes/dialect-writes.js';
import * as entryRows from '../../store/content-writes/entry-rows.js';
import type { Db, EntryRow } from '../../store/schema.js';
import type { Principal } from '../access/project-access.js';
import { beginGroupWrite } from '../groups/group-access.js';
import { guardConstraints } from '../shared/constraints.js';
import { requireMessage } from '../shared/message-text.js';
import { requireName } from '../shared/name-check.js';
import { keyOf, type EntryChange } from '../changes/change.js';
import { entryFields, removedEntry } from '../changes/fields.js';
import { changeSetFor, recordChanges } from '../changes/record-changes.js';
import { newOrderedId, nowIso } from '../shared/ids.js';
import { inTransaction, inWriteTransaction, unchanged } from '../shared/transaction.js';
import { beginEntryWrite } from './entry-access.js';
import { entrySummaryView, type EntrySummaryView } from './entry-view.js';

const duplicateName = (name: string) => `"${name}" is already used by an entry or a sub-group of this group`;

export interface EntryInput {
  technicalName: string;
  baseTerm: string;
  contextInfo?: string | null;
}

/** Creates an entry in a group; its technical name must be free in the group's name space. */
export async function createEntry(db: Db, principal: Principal, groupId: string, input: EntryInput): Promise<EntrySummaryView> {
  requireMessage(input.baseTerm, '/body/baseTerm');
  return inTransaction(db, async (trx) => {
    const { group, access, version, path } = await beginGroupWrite(trx, principal, groupId, 'canEditEntries');
    requireName(input.technicalName, 'entry', access.project.keyStyle);
    const now = nowIso();
    const row: EntryRow = {
      id: newOrderedId(),
      project_id: group.project_id,
      group_id: group.id,
      technical_name: input.technicalName,
      base_term: input.baseTerm,
      base_term_key: input.baseTerm.toLowerCase(),
      context_info: input.contextInfo ?? null,
      arb_metadata: null,
      created_at: now,
      updated_at: now,
      base_revision: 0,
    };
    // The name's check is the insert's own (one round trip less under the project's lock on PostgreSQL).
    const record = {
      set: changeSetFor(principal, group.project_id, version, { createdAt: now }),
      change: { target: 'entry', op: 'create', entryId: row.id, groupId: group.id, key: keyOf([...path, row.technical_name]), before: null, after: entryFields(row) } satisfies EntryChange,
    };
    const inserted = await guardConstraints(
      () => insertNewEntry(trx, row, access.project.translationLanguages, record),
      duplicateName(input.technicalName),
      () => notFound('group'),
    );
    if (!inserted) throw conflict(duplicateName(input.technicalName));
    return entrySummaryView(row);
  });
}

export interface EntryChanges {
  technicalName?: string | null;
  baseTerm?: string | null;
  contextInfo?: string | null;
  /** a typo fix of the base term: its translations are not marked outdated (CONTRACT "Review") */
  minorEdit?: boolean;
}

/** Renames an entry, changes its base term and/or its context info (null clears it). */
export async function updateEntry(db: Db, principal: Principal, entryId: string, changes: EntryChanges): Promise<EntrySummaryView> {
  if (changes.technicalName == null && changes.baseTerm == null && changes.contextInfo === undefined) {
    throw validationError('nothing to update: give technicalName, baseTerm or contextInfo');
  }
  if (changes.baseTerm != null) requireMessage(changes.baseTerm, '/body/baseTerm');
  return inWriteTransaction(db, async (trx) => {
    const { entry, access, version, groupPath } = await beginEntryWrite(trx, principal, entryId, 'canEditEntries');
    if (changes.technicalName != null) requireName(changes.technicalName, 'entry', access.project.keyStyle);
    const technicalName = changes.technicalName ?? entry.technical_name;
    if (technicalName !== entry.technical_name && (await nameTakenUnderParent(trx, entry.project_id, entry.group_id, technicalName, entry.id))) {
      throw conflict(duplicateName(technicalName));
    }
    const baseTerm = changes.baseTerm ?? entry.base_term;
    const updated: EntryRow = {
      ...entry,
      technical_name: technicalName,
      base_term: baseTerm,
      base_term_key: baseTerm.toLowerCase(),
      context_info: changes.contextInfo === undefined ? entry.context_info : changes.contextInfo,
      updated_at: nowIso(),
    };
    const same = updated.technical_name === entry.technical_name && updated.base_term === entry.base_term && updated.context_info === entry.context_info;
    if (same) unchanged(entrySummaryView(entry));
    const { id: _id, project_id: _p, group_id: _g, created_at: _c, base_revision: _r, ...set } = updated;
    const newBaseTerm = updated.base_term !== entry.base_term && changes.minorEdit !== true;
    await guardConstraints(() => entryRows.updateEntry(trx, entryId, set, newBaseTerm), duplicateName(technicalName), () => notFound('entry'));
    await recordChanges(trx, changeSetFor(principal, entry.project_id, version), [
      { target: 'entry', op: 'update', entryId, groupId: entry.group_id, key: keyOf([...groupPath, technicalName]), before: entryFields(entry), after: entryFields(updated) },
    ]);
    return entrySummaryView(updated);
  });
}

/** Deletes an entry with its translations. */
export async function deleteEntry(db: Db, principal: Principal, entryId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const { entry, version, key } = await beginEntryWrite(trx, principal, entryId, 'canEditEntries');
    const translations = await entries.listTranslationsOfEntry(trx, entryId);
    await entryRows.deleteEntry(trx, entryId);
    await recordChanges(trx, changeSetFor(principal, entry.project_id, version), [
      { target: 'entry', op: 'delete', entryId, groupId: entry.group_id, key, before: removedEntry(entry, translations), after: null },
    ]);
  });
}
