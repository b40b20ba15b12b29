/**
 * An import's translation writes (CONTRACT "Import", "Review"): new ones inserted in bulk, replaced
 * ones updated one by one (an import mostly inserts), and under markReviewed the unchanged ones it
 * reviews, in bulk. Each is written against its entry's base revision as the import leaves it (its
 * entry updates come first), so a translation the import writes is never outdated by its own edit of
 * the base term.
 */
import { collectGarbageWhenGrown } from '../../collect-garbage.js';
import * as writes from '../../store/content-writes/bulk-rows.js';
import type { Db } from '../../store/schema.js';
import { newOrderedId } from '../shared/ids.js';
import { reviewedColumns } from '../review/translation-state.js';
import type { ImportReviewer } from './import-review.js';
import type { ImportPlan, TranslationWrite } from './plan-import.js';

/** A large import's translations are written in runs of this many rows, its garbage collected between runs when it has grown. */
const ROWS_BETWEEN_COLLECTIONS = 50_000;

/**
 * Writes the plan's translations by `userId` at `now`; `order` places the new entries (their
 * translations are inserted entry by entry, in it). The pairs that got their first translation in an
 * entry the import did not create.
 */
export async function writeImportedTranslations(
  db: Db,
  plan: ImportPlan,
  order: ReadonlyMap<string, number>,
  userId: string,
  now: string,
  large: boolean,
): Promise<{ entryId: string; language: string }[]> {
  const reviewer: ImportReviewer | undefined = plan.markReviewed ? { userId, at: now } : undefined;
  const revisionOf = (entryId: string) => plan.revisions.get(entryId) ?? 0;
  const inserts: TranslationWrite[] = [];
  const newlyTranslated: { entryId: string; language: string }[] = [];
  for (const write of plan.translations) {
    if (write.replaces) {
      const revision = revisionOf(write.entryId);
      // A save of a different text: `translated`, the kept review left as it is; or the importer's review.
      const state = reviewer ? reviewedColumns(write.text, revision, reviewer.userId, reviewer.at) : { state: 'translated', base_revision: revision };
      await writes.updateTranslationText(db, write.entryId, write.language, { translation: write.text, translator_id: userId, updated_at: now, ...state });
      continue;
    }
    inserts.push(write);
    if (!order.has(write.entryId)) newlyTranslated.push({ entryId: write.entryId, language: write.language });
  }
  // New rows grouped by entry: consecutive inserts then land on the same pages of (entry_id, language).
  inserts.sort((a, b) => (order.get(a.entryId) ?? -1) - (order.get(b.entryId) ?? -1));
  const run = large ? ROWS_BETWEEN_COLLECTIONS : inserts.length;
  // Revision 0 is the column's default: where every revision is 0 (no base term of these entries was ever
  // edited, as in every new project's import), a value less to bind a row (~5 % of a 720,000-row insert on SQLite).
  const insert = reviewer ? writes.insertImportedReviewedRows : plan.revisions.size > 0 ? writes.insertImportedTranslationRows : writes.insertTranslationRows;
  for (let from = 0; from < inserts.length; from += run) {
    await insert(db, Math.min(run, inserts.length - from), (i) => {
      const write = inserts[from + i]!;
      const row = [newOrderedId(), write.entryId, write.language, write.text, userId, now, now];
      if (insert === writes.insertTranslationRows) return row;
      // IMPORTED_REVIEWED_COLUMNS' order (the review's revision, then the translation's), or IMPORTED_TRANSLATION_COLUMNS'
      const revision = String(revisionOf(write.entryId));
      if (reviewer) row.push('reviewed', write.text, reviewer.userId, reviewer.at, revision);
      row.push(revision);
      return row;
    });
    if (large) collectGarbageWhenGrown();
  }
  await writes.reviewTranslationRows(db, plan.reviews.length, (i) => [plan.reviews[i]!.entryId, plan.reviews[i]!.language], userId, now);
  return newlyTranslated;
}
