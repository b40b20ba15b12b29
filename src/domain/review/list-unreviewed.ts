/** The review list (CONTRACT "Review", Lists): the entries whose translation in a language needs a review. */
import * as unreviewed from '../../store/repositories/unreviewed.js';
import type { Db } from '../../store/schema.js';
import type { Principal } from '../access/project-access.js';
import { reviewersOf, translationView, untranslatedView, type TranslationView, type UntranslatedView } from '../entries/entry-view.js';
import { languageListPage, type LanguageList } from '../entries/language-list.js';
import type { ContentCaches } from '../shared/content-caches.js';
import { pageOf, type Page, type PageRequest } from '../shared/page.js';

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
  return languageListPage(db, caches, principal, projectId, language, page, UNREVIEWED);
}

/** Counting reads every translation in the language: the total is counted once per version (language-list.ts). */
const UNREVIEWED: LanguageList<unreviewed.UnreviewedRow, UnreviewedView> = {
  name: 'unreviewed',
  read: (db, projectId, language, page, knownTotal) => unreviewed.listUnreviewed(db, projectId, language, page.limit, page.offset, knownTotal),
  view: async (db, page, found) => {
    const reviewers = await reviewersOf(db, found.rows.map((row) => row.translation));
    return pageOf(page, found, ({ entry, translation }) => ({ ...untranslatedView(entry), translation: translationView(translation, entry.base_revision, reviewers) }));
  },
};
