/**
 * POST /projects/{id}/import: a whole app's files in one request, all or nothing. The body is read
 * into a document (per format, src/imports), planned against the project (plan-import.ts) under the
 * project's write lock, and written in the same transaction, or not at all: a refused item (without
 * skipInvalid), a missing capability or a dry run writes nothing.
 */
import { AppError, forbidden, projectNotFound } from '../../errors.js';
import { readFlutterImport } from '../../imports/formats/flutter-import.js';
import { readI18nextImport } from '../../imports/formats/i18next-import.js';
import { readJsonImport } from '../../imports/formats/json-import.js';
import { readVueI18nImport } from '../../imports/formats/vue-i18n-import.js';
import type { ImportDocument, ImportFile, ImportProblem } from '../../imports/import-document.js';
import { readArchive } from '../../imports/read-archive.js';
import * as writes from '../../store/content-writes/bulk-rows.js';
import { updateEntry } from '../../store/content-writes/entry-rows.js';
import { beginProjectWrite } from '../../store/content-writes/project-lock.js';
import type { Db } from '../../store/schema.js';
import type { Row } from '../../store/content-writes/bulk-rows.js';
import type { FormatId } from '../../exports/format.js';
import { loadProjectAccess, type Principal, type ProjectAccess } from '../access/project-access.js';
import type { Capability } from '../access/capabilities.js';
import { collectGarbage } from '../../collect-garbage.js';
import { nowIso } from '../shared/ids.js';
import { TOP_LEVEL_GROUP_NAME } from '../../names/technical-names.js';
import { inTransaction } from '../shared/transaction.js';
import type { ChangeSetRecord } from '../../store/content-writes/change-log.js';
import { changeSetFor } from '../changes/record-changes.js';
import { loadImportState, type ImportState } from './import-state.js';
import { recordImport } from './record-import.js';
import { placeArbKeys } from './place-arb-keys.js';
import { planImport, type ImportMode, type ImportPlan } from './plan-import.js';
import { writeImportedTranslations } from './write-imported-translations.js';

/** Items each list of the report (and of a 400's details) carries at most. */
export const REPORT_LIST_CAP = 1000;

export interface ImportRequest {
  format: FormatId;
  mode: ImportMode;
  dryRun: boolean;
  skipInvalid: boolean;
  /** i18next: each file one top-level group (true), the default layout (false), or decided by the file names */
  namespaces: boolean | undefined;
  /** flutter: the messages are in gen-l10n's `use-escaping: true` syntax */
  escaping: boolean;
  /** every translation the import writes, and every unchanged one not yet reviewed and current, is reviewed by the importer (needs canReview) */
  markReviewed: boolean;
  /** the parsed JSON (json, vue-i18n) or the archive's bytes (i18next, flutter) */
  body: unknown;
}

export interface ImportReport {
  dryRun: boolean;
  groups: { created: number };
  entries: { created: number; updated: number; unchanged: number };
  /** `reviewed` (markReviewed only): the translations it reviews, of those created, updated and unchanged */
  translations: { created: number; updated: number; unchanged: number; reviewed?: number };
  conflicts: { key: string; language: string; stored: string; imported: string }[];
  refused: { key: string; language: string; code: string; message: string }[];
  warnings: { key: string; language: string; message: string }[];
  /** every file read (an archive member, or a JSON body's language), with the texts taken from it */
  files: { name: string; language: string; texts: number }[];
  /** the length of each list before the cap */
  totals: { conflicts: number; refused: number; warnings: number; files: number };
  /** the change set that records this import's writes (`tolk revert --change-set` undoes it); null in a dry run or when nothing was written */
  changeSetId: string | null;
}

/** The body read into a document of the format. */
async function readDocument(request: ImportRequest, baseLanguage: string): Promise<ImportDocument> {
  switch (request.format) {
    case 'json':
      return readJsonImport(request.body, baseLanguage);
    case 'vue-i18n':
      return readVueI18nImport(request.body, baseLanguage);
    case 'i18next':
      return readI18nextImport(await readArchive(request.body as Buffer), baseLanguage, request.namespaces);
    case 'flutter':
      return readFlutterImport(await readArchive(request.body as Buffer), baseLanguage, request.escaping);
  }
}

/** The capabilities the plan's writes need that the caller lacks. */
function missingCapabilities(plan: ImportPlan, access: ProjectAccess): Capability[] {
  const needed = new Set<Capability>();
  if (plan.groups.length > 0 || plan.topLevelGroupId || plan.entries.length > 0 || plan.entryChanges.length > 0) needed.add('canEditEntries');
  if (plan.translations.length > 0) needed.add('canTranslate');
  if (plan.markReviewed && plan.translations.length + plan.reviews.length > 0) needed.add('canReview');
  return [...needed].filter((capability) => !access.capabilities[capability]);
}

function reportOf(plan: ImportPlan, files: readonly ImportFile[], dryRun: boolean, changeSetId: string | null): ImportReport {
  const cap = <T>(list: readonly T[]) => list.slice(0, REPORT_LIST_CAP);
  const updated = plan.entryChanges.filter((change) => change.baseTerm !== undefined).length;
  const translationsUpdated = plan.translations.filter((write) => write.replaces).length;
  return {
    dryRun,
    groups: { created: plan.groups.length + (plan.topLevelGroupId ? 1 : 0) },
    entries: { created: plan.entries.length, updated, unchanged: plan.counts.entriesUnchanged + (plan.entryChanges.length - updated) },
    translations: {
      created: plan.translations.length - translationsUpdated,
      updated: translationsUpdated,
      unchanged: plan.counts.translationsUnchanged,
      ...(plan.markReviewed ? { reviewed: plan.translations.length + plan.reviews.length } : {}),
    },
    conflicts: cap(plan.conflicts),
    refused: cap(plan.refused),
    warnings: cap(plan.warnings).map(({ key, language, message }) => ({ key, language, message })),
    files: cap(files).map(({ name, language, texts }) => ({ name, language, texts })),
    totals: { conflicts: plan.conflicts.length, refused: plan.refused.length, warnings: plan.warnings.length, files: files.length },
    changeSetId,
  };
}

/** 400 listing every refused item (up to the cap), nothing written. */
function refusal(refused: readonly ImportProblem[]): AppError {
  const first = refused[0]!;
  const where = (item: ImportProblem) => [item.language, item.key].filter((part) => part !== '').join(':') || '/body';
  return new AppError(
    'ERR_VALIDATION',
    `${refused.length} item(s) refused, nothing was imported (skipInvalid=true imports the rest); first ${where(first)}: ${first.message}`,
    refused.slice(0, REPORT_LIST_CAP).map((item) => ({ path: where(item), message: item.message })),
  );
}

/** Runs one import; answers the report, or throws 400/403 with nothing written. */
export async function importProject(db: Db, principal: Principal, projectId: string, request: ImportRequest): Promise<ImportReport> {
  // Who may import is known before the body is read: a stranger learns nothing from a 400 about the files.
  const before = await loadProjectAccess(db, principal, projectId);
  const document = await readDocument(request, before.project.baseLanguage);
  // The body (a parsed JSON tree of every text, or the archive) is read: let it go before the writes.
  request.body = undefined;
  const large = isLarge(document);
  if (large) collectGarbage();
  const run = async (trx: Db) => {
    const version = request.dryRun ? 0 : await beginProjectWrite(trx, projectId, nowIso());
    if (version === undefined) throw projectNotFound();
    const access = await loadProjectAccess(trx, principal, projectId);
    const state = await loadImportState(trx, projectId);
    const placed = document.arbKeys ? placeArbKeys(document, state, access.project.baseLanguage, access.project.keyStyle) : document;
    const plan = await planImport(placed, state, access.project, request.mode, request.markReviewed);
    const missing = missingCapabilities(plan, access);
    if (missing.length > 0) throw forbidden(`this import needs ${missing.join(' and ')} on the project, which your role does not give`);
    if (plan.refused.length > 0 && !request.skipInvalid) throw refusal(plan.refused);
    if (request.dryRun) return reportOf(plan, document.files, true, null);
    // Nothing to write: roll back, so the content version (the exports' ETag) stays as it was.
    if (!hasWrites(plan)) throw new NothingToWrite(reportOf(plan, document.files, false, null));
    // The plan holds every text it writes: the document's maps (a million entries for a large import) can go.
    for (const texts of placed.texts.values()) texts.clear();
    for (const texts of document.texts.values()) texts.clear();
    if (large) collectGarbage();
    const set = changeSetFor(principal, projectId, version, { source: 'import' });
    await applyPlan(trx, principal, access, plan, large, { set, state, format: request.format });
    return reportOf(plan, document.files, false, set.id);
  };
  // A dry run only reads; a real one writes in one transaction (rolled back by any throw above).
  if (request.dryRun) return run(db);
  try {
    return await inTransaction(db, run);
  } catch (error) {
    if (error instanceof NothingToWrite) return error.report;
    throw error;
  }
}

/** Texts from which an import counts as large: it then collects its garbage as it goes (collect-garbage.ts). */
const LARGE_IMPORT_TEXTS = 100_000;

function isLarge(document: ImportDocument): boolean {
  let count = 0;
  for (const texts of document.texts.values()) count += texts.size;
  return count >= LARGE_IMPORT_TEXTS;
}

class NothingToWrite extends Error {
  constructor(readonly report: ImportReport) {
    super('nothing to write');
  }
}

const hasWrites = (plan: ImportPlan) =>
  plan.groups.length + plan.entries.length + plan.entryChanges.length + plan.translations.length + plan.reviews.length > 0 || plan.topLevelGroupId !== null;

/** Writes the plan: groups (parents first), entries, translations, then the missing-translation rows. */
async function applyPlan(
  db: Db,
  principal: Principal,
  access: ProjectAccess,
  plan: ImportPlan,
  large: boolean,
  record: { set: ChangeSetRecord; state: ImportState; format: string },
): Promise<void> {
  const now = nowIso();
  const projectId = access.project.id;
  const groups: Row[] = plan.groups.map((group) => [group.id, projectId, group.parentId, group.name, group.name, now]);
  if (plan.topLevelGroupId) groups.unshift([plan.topLevelGroupId, projectId, null, TOP_LEVEL_GROUP_NAME, 'Top-level keys', now]);
  await writes.insertGroupRows(db, groups.length, (i) => groups[i]!);
  // Planned in the files' order with ordered ids (newOrderedId), as the translations' below: every index
  // keyed by one of their ids (the entries' own, their translations', the missing rows', the log's)
  // takes the import's rows at its right edge, page after page, and the untranslated list, ordered by
  // (created_at, id), keeps the files' order.
  const entries = plan.entries;
  await writes.insertEntryRows(db, entries.length, (i) => {
    const entry = entries[i]!;
    return [entry.id, projectId, entry.groupId, entry.name, entry.baseTerm, entry.baseTerm.toLowerCase(), entry.contextInfo, entry.arbMetadata, now, now];
  });
  for (const change of plan.entryChanges) {
    // A base term the import changes is a base term edit (CONTRACT "Review"): the entry's translations
    // it does not write become outdated; those it writes are written against the new base term.
    await updateEntry(db, change.id, {
      ...(change.baseTerm !== undefined ? { base_term: change.baseTerm, base_term_key: change.baseTerm.toLowerCase() } : {}),
      ...(change.contextInfo !== undefined ? { context_info: change.contextInfo } : {}),
      ...(change.arbMetadata !== undefined ? { arb_metadata: change.arbMetadata } : {}),
      updated_at: now,
    }, change.baseTerm !== undefined);
  }
  const order = new Map(entries.map((entry, index) => [entry.id, index]));
  const newlyTranslated = await writeImportedTranslations(db, plan, order, principal.userId, now, large);
  const languages = access.project.translationLanguages;
  const missing: [entryId: string, language: string][] = [];
  for (const entry of entries) {
    for (const language of languages) if (!entry.translated.includes(language)) missing.push([entry.id, language]);
  }
  await writes.insertMissingRows(db, missing.length, (i) => [missing[i]![0], missing[i]![1], projectId, now]);
  await writes.deleteMissing(db, newlyTranslated);
  await recordImport(db, { ...record.set, createdAt: now }, record.format, plan, record.state, large);
}
