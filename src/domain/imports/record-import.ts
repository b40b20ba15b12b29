/**
 * An import's change set (CONTRACT "History"): one change per group, entry and translation it wrote,
 * `source: import`. A large import records a million changes: an entry's translations are one row
 * per op (a bundle, store/content-writes/change-bundles.ts), and the rows are made as the bulk insert
 * asks for them (store/content-writes/bulk-rows.ts), never held as a million objects.
 */
import { collectGarbageWhenGrown } from '../../collect-garbage.js';
import { bundleJson } from '../../store/content-writes/change-bundles.js';
import { fieldsForLog, type ChangeSetRecord } from '../../store/content-writes/change-log.js';
import * as writes from '../../store/content-writes/bulk-rows.js';
import type { Db } from '../../store/schema.js';
import { TOP_LEVEL_GROUP_NAME } from '../../names/technical-names.js';
import { keyOf, type EntryFields } from '../changes/change.js';
import { writtenFields } from '../review/translation-state.js';
import { importedFields, storedFields, storedReview, type ImportReviewer } from './import-review.js';
import type { ImportState, StoredEntry } from './import-state.js';
import type { ImportPlan, TranslationWrite } from './plan-import.js';

const TOP_LEVEL_DISPLAY_NAME = 'Top-level keys';

/** Change rows a large import inserts between two looks at its garbage (a bundle holds an entry's languages). */
const ROWS_BETWEEN_COLLECTIONS = 5_000;

/** A new text as the log keeps it (a million of them in a large import): `translated`, current, no review. */
const translationJson = (text: string) => fieldsForLog('translation', writtenFields(text, undefined))!;

/** An entry's fields as an import records them: with its ARB metadata when the import changes that. */
type RecordedEntry = EntryFields & { arbMetadata?: string | null };

/** The groups the import creates (the top-level keys' group among them). */
const groupsCreated = (plan: ImportPlan): number => plan.groups.length + (plan.topLevelGroupId ? 1 : 0);

/** What the import's writes changed, counted as the set's summary counts them. */
function countChanges(plan: ImportPlan): { created: number; updated: number } {
  let translationUpdates = 0;
  for (const write of plan.translations) if (write.replaces) translationUpdates += 1;
  // A review of an unchanged text (markReviewed) is an update of its state.
  return {
    created: groupsCreated(plan) + plan.entries.length + plan.translations.length - translationUpdates,
    updated: plan.entryChanges.length + translationUpdates + plan.reviews.length,
  };
}

/** What the import wrote, by target, and from which format: the Activity's "imported 1,240 translations (i18next)". */
const importSummaryOf = (plan: ImportPlan, format: string): writes.ImportSummary => ({
  format,
  translations: plan.translations.length,
  entries: plan.entries.length + plan.entryChanges.length,
  groups: groupsCreated(plan),
});

/** Records the import's change set and its changes; answers the set's id. */
export async function recordImport(
  db: Db,
  set: ChangeSetRecord,
  format: string,
  plan: ImportPlan,
  state: ImportState,
  large: boolean,
): Promise<string> {
  const groupPaths = new Map<string, readonly string[]>();
  for (const group of state.groups.values()) groupPaths.set(group.id, group.path);
  if (state.topLevelGroupId) groupPaths.set(state.topLevelGroupId, []);
  if (plan.topLevelGroupId) groupPaths.set(plan.topLevelGroupId, []);
  for (const group of plan.groups) groupPaths.set(group.id, [...(group.parentId === null ? [] : groupPaths.get(group.parentId)!), group.name]);
  const storedById = new Map<string, StoredEntry>();
  for (const entry of state.entries.values()) storedById.set(entry.id, entry);
  const newById = new Map(plan.entries.map((entry) => [entry.id, entry]));

  const rows: (() => writes.Row)[] = [];
  const row = (target: string, op: string, groupId: string | null, entry: string | null, language: string | null, key: string, before: string | null, after: string | null, bundled: string | null = null) =>
    [set.id, set.projectId, String(set.version), target, op, groupId, entry, language, key, before, after, bundled] as const;

  if (plan.topLevelGroupId) {
    const after = { technicalName: TOP_LEVEL_GROUP_NAME, displayName: TOP_LEVEL_DISPLAY_NAME, parentId: null };
    const id = plan.topLevelGroupId;
    rows.push(() => row('group', 'create', id, null, null, '', null, fieldsForLog('group', after)));
  }
  for (const group of plan.groups) {
    rows.push(() => row('group', 'create', group.id, null, null, keyOf(groupPaths.get(group.id)!), null, fieldsForLog('group', { technicalName: group.name, displayName: group.name, parentId: group.parentId })));
  }
  for (const entry of plan.entries) {
    rows.push(() => {
      const after: EntryFields = { technicalName: entry.name, baseTerm: entry.baseTerm, contextInfo: entry.contextInfo, groupId: entry.groupId };
      return row('entry', 'create', entry.groupId, entry.id, null, keyOf([...groupPaths.get(entry.groupId)!, entry.name]), null, fieldsForLog('entry', after));
    });
  }
  for (const change of plan.entryChanges) {
    const stored = storedById.get(change.id)!;
    const fields: EntryFields = { technicalName: stored.technicalName, baseTerm: stored.baseTerm, contextInfo: stored.contextInfo, groupId: stored.groupId };
    // The flutter export writes the ARB metadata (placeholder types, examples) again, so a change of it, even
    // alone, changes the project: it is then recorded on both sides (left out where the import keeps it).
    const metadata = change.arbMetadata === undefined ? {} : { before: { arbMetadata: stored.arbMetadata }, after: { arbMetadata: change.arbMetadata } };
    const before: RecordedEntry = { ...fields, ...metadata.before };
    const after: RecordedEntry = { ...fields, baseTerm: change.baseTerm ?? fields.baseTerm, contextInfo: change.contextInfo === undefined ? fields.contextInfo : change.contextInfo, ...metadata.after };
    rows.push(() => row('entry', 'update', stored.groupId, stored.id, null, keyOf(stored.path), fieldsForLog('entry', before), fieldsForLog('entry', after)));
  }
  const first = rows.length;
  // The texts it writes, then (markReviewed) the unchanged ones it reviews: both are an entry's updates.
  const { translations, reviews } = plan;
  const writeAt = (index: number): TranslationWrite => (index < translations.length ? translations[index]! : reviews[index - translations.length]!);
  const reviewer: ImportReviewer | undefined = plan.markReviewed ? { userId: set.userId, at: set.createdAt } : undefined;
  // Each write's `after`; the plain new text (every one of a large import's) as before review states.
  const afterJson = (write: TranslationWrite, stored: StoredEntry | undefined) => {
    if (!reviewer && !write.replaces) return translationJson(write.text);
    const kept = write.replaces ? storedReview(stored!, write.language) : undefined;
    return fieldsForLog('translation', importedFields(write.text, plan.revisions.get(write.entryId) ?? 0, reviewer, kept))!;
  };
  // An entry's translations are recorded in one row per op (a bundle, migration 015), entry by entry
  // (entryMajorOrder): its group and key are found once for its languages.
  const order = entryMajorOrder(translations.length + reviews.length, (index) => writeAt(index).entryId);
  const bundles = bundlesOf(order, writeAt);
  const bundleRow = (bundle: number): writes.Row => {
    const start = bundles[3 * bundle]!;
    const end = bundles[3 * bundle + 1]!;
    const replaces = bundles[3 * bundle + 2] === 1;
    const written = [];
    for (let at = start; at < end; at += 1) {
      const write = writeAt(order[at]!);
      if (write.replaces === replaces) written.push(write);
    }
    const entryId = written[0]!.entryId;
    const stored = storedById.get(entryId);
    const { groupId, key } = placeOf(entryId, stored);
    const after = bundleJson(written.map((write) => [write.language, afterJson(write, stored)] as const));
    // What it replaced, as it was: its text, state, outdated flag and kept review.
    const before = replaces ? bundleJson(written.map((write) => [write.language, fieldsForLog('translation', storedFields(stored!, write.language))!] as const)) : null;
    return row('translation', replaces ? 'update' : 'create', groupId, entryId, null, key, before, after, String(written.length));
  };
  const placeOf = (entryId: string, stored: StoredEntry | undefined) => {
    const created = newById.get(entryId);
    const groupId = stored?.groupId ?? created!.groupId;
    return { groupId, key: keyOf(stored?.path ?? [...groupPaths.get(groupId)!, created!.name]) };
  };

  const { created, updated } = countChanges(plan);
  await writes.insertChangeSet(db, set, { created, updated, deleted: 0 }, importSummaryOf(plan, format));
  // A large import's bundles are its largest rows (PostgreSQL encodes each insert's columns as a few
  // MB of array text): its garbage is collected between runs of them (collect-garbage.ts).
  const count = first + bundles.length / 3;
  const run = large ? ROWS_BETWEEN_COLLECTIONS : count;
  for (let from = 0; from < count; from += run) {
    await writes.insertChangeRows(db, Math.min(run, count - from), (at) => (from + at < first ? rows[from + at]!() : bundleRow(from + at - first)));
    if (large) collectGarbageWhenGrown();
  }
  return set.id;
}

/**
 * The bundles of `order` (entryMajorOrder): each entry's run of it, once for the translations it
 * creates and once for those it replaces (the ops that have any), as flat [start, end, replaces]
 * triples over `order`.
 */
function bundlesOf(order: Int32Array, writeAt: (index: number) => { entryId: string; replaces: boolean }): Int32Array {
  const bundles: number[] = [];
  for (let start = 0; start < order.length; ) {
    const entryId = writeAt(order[start]!).entryId;
    let end = start;
    const has = [false, false];
    for (; end < order.length && writeAt(order[end]!).entryId === entryId; end += 1) has[writeAt(order[end]!).replaces ? 1 : 0] = true;
    for (const replaces of [0, 1]) if (has[replaces]) bundles.push(start, end, replaces);
    start = end;
  }
  return Int32Array.from(bundles);
}

/**
 * The translations' indexes ordered by their entry's id, each entry's together (in plan order within
 * it). The plan holds them language by language; recorded so, each language's pass inserted into the
 * middle of every page of the log's index by entry (a page split on each, nine passes for ten
 * languages); entry by entry, they append to it (import-large on SQLite: docs/design/history.md).
 */
function entryMajorOrder(count: number, entryOf: (index: number) => string): Int32Array {
  const ordinalOf = new Map<string, number>();
  const ordinals = new Int32Array(count);
  for (let index = 0; index < count; index += 1) {
    const entry = entryOf(index);
    let ordinal = ordinalOf.get(entry);
    if (ordinal === undefined) ordinalOf.set(entry, (ordinal = ordinalOf.size));
    ordinals[index] = ordinal;
  }
  // Each entry's place in id order, then a counting sort of the translations by it (stable: plan order within an entry).
  const rankOf = new Int32Array(ordinalOf.size);
  [...ordinalOf.keys()].sort().forEach((entry, rank) => (rankOf[ordinalOf.get(entry)!] = rank));
  const starts = new Int32Array(ordinalOf.size + 1);
  for (let index = 0; index < count; index += 1) starts[rankOf[ordinals[index]!]! + 1]! += 1;
  for (let rank = 0; rank < ordinalOf.size; rank += 1) starts[rank + 1]! += starts[rank]!;
  const order = new Int32Array(count);
  for (let index = 0; index < count; index += 1) order[starts[rankOf[ordinals[index]!]!]!++] = index;
  return order;
}

