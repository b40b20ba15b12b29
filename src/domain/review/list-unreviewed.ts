/** The review list (CONTRACT "Review", Lists): the entries whose translation in a language needs a review. */
import * as unreviewed from '../../store/repositories/unreviewed.js';
import type { Db } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import { reviewersOf, translationView, untranslatedView, type TranslationView, type UntranslatedView } from '../entries/entry-view.js';
import { approximateBytes } from '../shared/content-cache.js';
import type { ContentCaches } from '../shared/content-caches.js';
import { pageOf, type Page, type PageRequest } from '../shared/page.js';
import { checkTranslationLanguage } from '../translations/translation-language.js';

export type UnreviewedView = UntranslatedView & { translation: TranslationView };

/**
 * A page of the project's entries whose translation in `language` (a translation language of the
 * project) is not reviewed or is outdated, each with that translation; in the untranslated list's
 * order. Entries without a translation in `language` are the untranslated list's, not this one's.
 */
export async function listUnreviewed(
  db: Db,
  caches: ContentCaches,
  principal: Principal,
  projectId: string,
  language: string,
  page: PageRequest,
): Promise<Page<UnreviewedView>> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadEntries');
  checkTranslationLanguage(access.project, language, '/querystring/languageCode');
  const version = access.project.contentVersion;
  const key = `unreviewed:${projectId}:${language}:${page.limit}:${page.offset}`;
  const kept = caches.entryReads.get<Page<UnreviewedView>>(key, projectId, version);
  if (kept) return kept;
  // The total is the same for every page of one version, and counting reads every translation in the language: once.
  const totalKey = `unreviewed-total:${projectId}:${language}`;
  const knownTotal = caches.entryReads.get<number>(totalKey, projectId, version);
  const found = await unreviewed.listUnreviewed(db, projectId, language, page.limit, page.offset, knownTotal);
  if (knownTotal === undefined) caches.entryReads.set(totalKey, projectId, version, found.total, 16);
  const reviewers = await reviewersOf(db, found.rows.map((row) => row.translation));
  const view = pageOf(page, found, ({ entry, translation }) => ({
    ...untranslatedView(entry),
    translation: translationView(translation, entry.base_revision, reviewers),
  }));
  caches.entryReads.set(key, projectId, version, view, approximateBytes(view));
  return view;
}
