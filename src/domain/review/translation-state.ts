/**
 * A translation's review state as the contract names it (CONTRACT "Review"), from its stored row and
 * its entry's base revision: `outdated` is derived (the entry's base term changed, other than by a
 * minor edit, since the translation was written, confirmed or reviewed), never stored per translation.
 */
import type { ReviewColumns } from '../../store/content-writes/translation-rows.js';
import type { TranslationRow } from '../../store/schema.js';
import type { KeptReview, ReviewState, TranslationFields } from '../changes/change.js';

/** The columns of a translation that its state is made of. */
export type StoredState = Pick<TranslationRow, 'translation' | 'state' | 'base_revision' | 'reviewed_text' | 'reviewed_by' | 'reviewed_at' | 'reviewed_revision'>;

export const reviewStateOf = (row: Pick<TranslationRow, 'state'>): ReviewState => (row.state === 'reviewed' ? 'reviewed' : 'translated');

/** Written, confirmed or reviewed against an earlier base term than the entry's current one. */
export const isOutdated = (row: Pick<TranslationRow, 'base_revision'>, entryRevision: number): boolean => row.base_revision < entryRevision;

/** The review the translation keeps (the text that ships under `release=reviewed`), if any. */
export function keptReview(row: StoredState): KeptReview | undefined {
  if (row.reviewed_text === null || row.reviewed_by === null || row.reviewed_at === null) return undefined;
  return { text: row.reviewed_text, userId: row.reviewed_by, at: row.reviewed_at, revision: row.reviewed_revision ?? 0 };
}

/** A stored translation in history's words (`before`/`after`). */
export function translationFields(row: StoredState, entryRevision: number): TranslationFields {
  const review = keptReview(row);
  return { text: row.translation, state: reviewStateOf(row), outdated: isOutdated(row, entryRevision), ...(review ? { review } : {}) };
}

/** The fields of a text just written: `translated`, current, keeping the review it had (CONTRACT "Review": saving a different text). */
export function writtenFields(text: string, kept: KeptReview | undefined): TranslationFields {
  return { text, state: 'translated', outdated: false, ...(kept ? { review: kept } : {}) };
}

/**
 * The review columns that put back a translation's recorded state (a revert): its state and the review
 * it kept. `outdated` is a flag of the entry's base revision: a translation put back as outdated counts
 * as written against the base term before the current one. A `reviewed` state recorded without its
 * review (none is) would be reviewed by `userId` now.
 */
export function reviewColumnsOf(fields: TranslationFields, entryRevision: number, userId: string, now: string): ReviewColumns {
  const review = fields.review ?? (fields.state === 'reviewed' ? { text: fields.text, userId, at: now, revision: entryRevision } : undefined);
  return {
    state: fields.state,
    base_revision: fields.outdated && entryRevision > 0 ? entryRevision - 1 : entryRevision,
    reviewed_text: review?.text ?? null,
    reviewed_by: review?.userId ?? null,
    reviewed_at: review?.at ?? null,
    // an entry brought back anew has no revisions: its kept review counts as made against its base term
    reviewed_revision: review ? Math.min(review.revision, entryRevision) : null,
  };
}

/** What a review of `text` by `userId` at `at` writes: reviewed, against the entry's current base revision (`revision`). */
export const reviewedColumns = (text: string, revision: number, userId: string, at: string): ReviewColumns => ({
  state: 'reviewed',
  base_revision: revision,
  reviewed_text: text,
  reviewed_by: userId,
  reviewed_at: at,
  reviewed_revision: revision,
});
