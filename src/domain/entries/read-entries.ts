/** Reading entries: a group's page (with search), one entry with translations, untranslated entries. */
import { notFound, type AppError } from '../../errors.js';
import * as entries from '../../store/repositories/entries.js';
import * as missing from '../../store/repositories/missing-translations.js';
import type { Db } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import { loadGroupAccess } from '../groups/group-access.js';
import { approximateBytes } from '../shared/content-cache.js';
import type { ContentCaches } from '../shared/content-caches.js';
import { pageOf, type Page, type PageRequest } from '../shared/page.js';
import {
  entrySummaryView,
  reviewersOf,
  translationView,
  untranslatedView,
  type EntrySummaryView,
  type TranslationView,
  type UntranslatedView,
} from './entry-view.js';
import { languageListPage, type LanguageList } from './language-list.js';

type EntryListItem = EntrySummaryView & { translations?: TranslationView[] };

/**
 * A page of a group's entries; `search` matches technical name or base term, case-insensitively.
 * `withTranslations` adds each entry's translations (the editor's grid: one request a page).
 */
export async function listEntries(
  db: Db,
  caches: ContentCaches,
  principal: Principal,
  groupId: string,
  { search, withTranslations }: { search?: string | undefined; withTranslations: boolean },
  page: PageRequest,
): Promise<Page<EntryListItem>> {
  const key = `page:${groupId}:${page.limit}:${page.offset}:${withTranslations}:${search ?? ''}`;
  // A deleted group bumped its project's version: its kept pages are not current any more.
  const kept = await keptOfKnownProject<Page<EntryListItem>>(db, caches, principal, key, () => notFound('group'));
  if (kept) return kept;
  const { access } = await loadGroupAccess(db, principal, groupId, 'canReadEntries');
  const { id: projectId, contentVersion, translationLanguages } = access.project;
  const listed = await entries.listGroupEntries(db, groupId, search, page.limit, page.offset);
  const entryRows = listed.rows;
  const found: Page<EntryListItem> = pageOf(page, listed, entrySummaryView);
  if (withTranslations) {
    const rows = await entries.listTranslationsOfEntries(db, found.result.map((entry) => entry.id), translationLanguages);
    const reviewers = await reviewersOf(db, rows);
    for (const entry of found.result) entry.translations = [];
    const byEntry = new Map(found.result.map((entry, index) => [entry.id, { view: entry, revision: entryRows[index]!.base_revision }]));
    for (const row of rows) {
      const entry = byEntry.get(row.entry_id);
      entry?.view.translations?.push(translationView(row, entry.revision, reviewers));
    }
  }
  // A search's matches depend on every entry's base term: only a plain page shows nothing but its entries.
  const shows = search === undefined ? found.result.map((entry) => entry.id) : undefined;
  caches.entryReads.set(key, projectId, contentVersion, found, approximateBytes(found), shows);
  return found;
}

/** One entry with its translations in the project's current translation languages. */
export async function getEntry(db: Db, caches: ContentCaches, principal: Principal, entryId: string): Promise<EntryView> {
  const key = `entry:${entryId}`;
  const kept = await keptOfKnownProject<EntryView>(db, caches, principal, key, () => notFound('entry'));
  if (kept) return kept;
  // Read with its translations at once; nothing of them is shown before the access check below.
  const found = await entries.findEntryWithTranslations(db, entryId);
  if (!found) throw notFound('entry');
  const access = await loadProjectAccess(db, principal, found.entry.project_id, () => notFound('entry'));
  requireCapability(access, 'canReadEntries');
  const languages = new Set(access.project.translationLanguages);
  const translations = found.translations.filter((row) => languages.has(row.language));
  const reviewers = await reviewersOf(db, translations);
  const view = { ...entrySummaryView(found.entry), translations: translations.map((row) => translationView(row, found.entry.base_revision, reviewers)) };
  caches.entryReads.set(key, access.project.id, access.project.contentVersion, view, approximateBytes(view), [entryId]);
  return view;
}

type EntryView = EntrySummaryView & { translations: TranslationView[] };

/**
 * The read kept under `key`, if it is current, found with its project's access check alone: for the
 * reads of an entry or a group, which never change project. When it was read before, that check
 * (which loads the content version; on PostgreSQL with the authentication) is all the database work
 * a repeated read needs. Undefined when nothing current is kept; the access check's refusals are thrown.
 */
async function keptOfKnownProject<T>(db: Db, caches: ContentCaches, principal: Principal, key: string, notFound: () => AppError): Promise<T | undefined> {
  const projectId = caches.entryReads.projectOf(key);
  if (!projectId) return undefined;
  const access = await loadProjectAccess(db, principal, projectId, notFound);
  requireCapability(access, 'canReadEntries');
  return caches.entryReads.current<T>(db, key, projectId, access.project.contentVersion);
}

/** The project's entries that have no translation in a language (a translation language of the project). */
const UNTRANSLATED: LanguageList<Awaited<ReturnType<typeof missing.listUntranslated>>['rows'][number], UntranslatedView> = {
  name: 'untranslated',
  read: (db, projectId, language, page, knownTotal) => missing.listUntranslated(db, projectId, language, page.limit, page.offset, knownTotal),
  view: async (_db, page, found) => pageOf(page, found, untranslatedView),
};

/** A page of the project's entries that have no translation in `language` (a translation language of the project). */
export async function listUntranslated(
  db: Db,
  caches: ContentCaches,
  principal: Principal,
  projectId: string,
  language: string,
  page: PageRequest,
): Promise<Page<UntranslatedView>> {
  return languageListPage(db, caches, principal, projectId, language, page, UNTRANSLATED);
}
