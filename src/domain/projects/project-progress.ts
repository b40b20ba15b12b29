/** How far each translation language of a project is: the web app's progress bars. */
import { countProgress } from '../../store/repositories/missing-translations.js';
import type { Db } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import type { ContentCaches } from '../shared/content-caches.js';

export interface ProgressView {
  entryCount: number;
  languages: { language: string; translated: number; untranslated: number }[];
}

/** Translated and untranslated entries per translation language (kept per content version). */
export async function projectProgress(db: Db, caches: ContentCaches, principal: Principal, projectId: string): Promise<ProgressView> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadEntries');
  const { contentVersion, translationLanguages } = access.project;
  const key = `progress:${projectId}`;
  const kept = caches.entryReads.get<ProgressView>(key, projectId, contentVersion);
  if (kept) return kept;
  const { entryCount, missing } = await countProgress(db, projectId, translationLanguages);
  const view = {
    entryCount,
    languages: translationLanguages.map((language) => {
      const untranslated = missing.get(language) ?? 0;
      return { language, translated: entryCount - untranslated, untranslated };
    }),
  };
  caches.entryReads.set(key, projectId, contentVersion, view, 64 + 64 * translationLanguages.length);
  return view;
}
