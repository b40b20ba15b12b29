/** How far each translation language of a project is: the web app's progress bars. */
import { countProgress } from '../../store/repositories/missing-translations.js';
import { KEPT_VERSIONS_WINDOW, entryChangesSince } from '../../store/repositories/exports.js';
import { entryPlaces, inRange } from '../../store/repositories/entry-ranges.js';
import { countReviewStatesByRange, countReviewStatesIn, sumCounts, type RangeCounts, type ReviewCounts } from '../../store/repositories/unreviewed.js';
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
    reviewCounts(db, caches, projectId, contentVersion, translationLanguages),
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

/**
 * The review counts per language at `version`. Counting reads every translation of the project (~0.5 s
 * at 100,000 entries × 10 languages), and the editor asks for progress after each save: so the counts
 * are kept per range of entries (2,000 on SQLite), and after writes that changed only some entries'
 * texts or states (the log says which: entryChangesSince, as the kept reads catch up) only the ranges
 * holding those entries are counted again. Any other write (an entry made, moved or deleted, the
 * languages) counts them all. A range read while a write landed is counted again after it, as the
 * write's entry is in it.
 */
async function reviewCounts(db: Db, caches: ContentCaches, projectId: string, version: number, languages: readonly string[]): Promise<Map<string, ReviewCounts>> {
  const key = `review-ranges:${projectId}`;
  const kept = caches.entryReads.latest<RangeCounts[]>(key, projectId);
  let ranges: RangeCounts[];
  if (kept?.version === version) ranges = kept.value;
  else {
    const caughtUp = kept && kept.version < version && version - kept.version <= KEPT_VERSIONS_WINDOW;
    const changed = caughtUp ? await entryChangesSince(db, projectId, kept.version, version) : undefined;
    if (kept && changed) {
      const places = await entryPlaces(db, [...new Set(changed)]);
      ranges = [];
      for (const part of kept.value) {
        ranges.push(places.some((place) => inRange(part.range, place)) ? { range: part.range, counts: await countReviewStatesIn(db, projectId, part.range) } : part);
      }
    } else ranges = await countReviewStatesByRange(db, projectId);
    caches.entryReads.set(key, projectId, version, ranges, 256 + ranges.length * (256 + 64 * languages.length));
  }
  return sumCounts(ranges, languages);
}
