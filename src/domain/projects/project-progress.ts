/** How far each translation language of a project is: the web app's progress bars. */
import { countProgress } from '../../store/repositories/missing-translations.js';
import { countReviewStates } from '../../store/repositories/unreviewed.js';
import type { Db } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import type { ContentCaches } from '../shared/content-caches.js';

/** Per language: `translated` of `entryCount` entries have a translation; of those, `reviewed` are reviewed and current, `outdated` are outdated. */
export interface LanguageProgressView {
  language: string;
  translated: number;
  untranslated: number;
  reviewed: number;
  outdated: number;
}

export interface ProgressView {
  entryCount: number;
  languages: LanguageProgressView[];
}

/** Translated, untranslated, reviewed and outdated entries per translation language (kept per content version). */
export async function projectProgress(db: Db, caches: ContentCaches, principal: Principal, projectId: string): Promise<ProgressView> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadEntries');
  const { contentVersion, translationLanguages } = access.project;
  const key = `progress:${projectId}`;
  const kept = caches.entryReads.get<ProgressView>(key, projectId, contentVersion);
  if (kept) return kept;
  const [{ entryCount, missing }, reviewStates] = await Promise.all([
    countProgress(db, projectId, translationLanguages),
    countReviewStates(db, projectId, translationLanguages),
  ]);
  const view = {
    entryCount,
    languages: translationLanguages.map((language) => {
      const untranslated = missing.get(language) ?? 0;
      const { reviewed, outdated } = reviewStates.get(language) ?? { reviewed: 0, outdated: 0 };
      return { language, translated: entryCount - untranslated, untranslated, reviewed, outdated };
    }),
  };
  caches.entryReads.set(key, projectId, contentVersion, view, 64 + 96 * translationLanguages.length);
  return view;
}
