/**
 * The review states of what an import writes (CONTRACT "Review", "Import"). A text it writes is
 * `translated`, written against its entry's base revision as the import leaves it, keeping the review a
 * replaced text had (as a save does); under markReviewed it is `reviewed` by the importer at the
 * import's time. Its history records each replaced translation's stored state exactly (`before`).
 */
import type { KeptReview, TranslationFields } from '../changes/change.js';
import { isOutdated, keptReview, translationFields, writtenFields, type StoredState } from '../review/translation-state.js';
import type { StoredEntry } from './import-state.js';

/** Who reviews under markReviewed: the importer, at the import's time. */
export interface ImportReviewer {
  readonly userId: string;
  readonly at: string;
}

/** The stored translation's text and state; one the import's read left plain is translated, current and never reviewed. */
export function storedState(entry: StoredEntry, language: string): StoredState {
  const columns = entry.states?.[language];
  const plain = { state: 'translated', base_revision: entry.baseRevision, reviewed_text: null, reviewed_by: null, reviewed_at: null, reviewed_revision: null };
  return { translation: entry.translations[language]!, ...(columns ?? plain) };
}

/** The stored translation in history's words (a change's `before`): against its entry's base term before the import. */
export const storedFields = (entry: StoredEntry, language: string): TranslationFields => translationFields(storedState(entry, language), entry.baseRevision);

/** The review a replaced translation keeps (it ships under `release=reviewed` until the new text is reviewed). */
export const storedReview = (entry: StoredEntry, language: string): KeptReview | undefined =>
  entry.states?.[language] === undefined ? undefined : keptReview(storedState(entry, language));

/**
 * Reviewed and not outdated against `revision` (its entry's after the import): markReviewed leaves it
 * as it is, its first reviewer too, as a single review does.
 */
export function isReviewedAndCurrent(entry: StoredEntry, language: string, revision: number): boolean {
  const columns = entry.states?.[language];
  return columns !== undefined && columns.state === 'reviewed' && !isOutdated(columns, revision);
}

/** A text the import writes, in history's words (a change's `after`); `kept`: the review a replaced text keeps. */
export function importedFields(text: string, revision: number, reviewer: ImportReviewer | undefined, kept: KeptReview | undefined): TranslationFields {
  if (!reviewer) return writtenFields(text, kept);
  return { text, state: 'reviewed', outdated: false, review: { text, userId: reviewer.userId, at: reviewer.at, revision } };
}
