/**
 * A language's progress split by state (CONTRACT "Review"): of the project's entries, those reviewed
 * (and current), translated but still to review, outdated, and untranslated; the four add up to the
 * entries. `reviewed` and `outdated` never overlap (an outdated review counts as outdated).
 */
import type { LanguageProgress } from '../../types';

export const PROGRESS_PARTS = ['reviewed', 'toReview', 'outdated', 'untranslated'] as const;
export type ProgressPart = (typeof PROGRESS_PARTS)[number];

export function progressParts(progress: LanguageProgress): Record<ProgressPart, number> {
  const { translated, untranslated, reviewed, outdated } = progress;
  return { reviewed, toReview: Math.max(0, translated - reviewed - outdated), outdated, untranslated };
}

/** A share of the whole as a CSS width (the whole 0: none). */
export const share = (count: number, total: number): string => `${total === 0 ? 0 : (count / total) * 100}%`;
