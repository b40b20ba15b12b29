/**
 * A page of one of a project's per-language lists (the untranslated entries, the unreviewed ones):
 * for readers of the project, in one of its translation languages, kept per content version, with its
 * total counted once per version (every page of one version has the same one).
 */
import type { Db } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import { approximateBytes } from '../shared/content-cache.js';
import type { ContentCaches } from '../shared/content-caches.js';
import type { Page, PageRequest } from '../shared/page.js';
import { checkTranslationLanguage } from '../translations/translation-language.js';

export interface LanguageList<R, V> {
  /** the list's name in its cache keys */
  name: string;
  /** a page's rows and the list's total (`knownTotal` when this version's was counted already) */
  read(db: Db, projectId: string, language: string, page: PageRequest, knownTotal: number | undefined): Promise<{ rows: R[]; total: number }>;
  /** the page as the API shows it */
  view(db: Db, page: PageRequest, found: { rows: R[]; total: number }): Promise<Page<V>>;
}

export async function languageListPage<R, V>(
  db: Db,
  caches: ContentCaches,
  principal: Principal,
  projectId: string,
  language: string,
  page: PageRequest,
  list: LanguageList<R, V>,
): Promise<Page<V>> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadEntries');
  checkTranslationLanguage(access.project, language, '/querystring/languageCode');
  const version = access.project.contentVersion;
  const key = `${list.name}:${projectId}:${language}:${page.limit}:${page.offset}`;
  const kept = caches.entryReads.get<Page<V>>(key, projectId, version);
  if (kept) return kept;
  const totalKey = `${list.name}-total:${projectId}:${language}`;
  const knownTotal = caches.entryReads.get<number>(totalKey, projectId, version);
  const found = await list.read(db, projectId, language, page, knownTotal);
  if (knownTotal === undefined) caches.entryReads.set(totalKey, projectId, version, found.total, 16);
  const view = await list.view(db, page, found);
  caches.entryReads.set(key, projectId, version, view, approximateBytes(view));
  return view;
}
