/** A translation's own rows: the plain statements the dialects' writes and a revert are made of. */
import { prepared } from '../prepared.js';
import type { Db, TranslationRow } from '../schema.js';

/**
 * What a save writes: a text, by whom, against which base revision of its entry. It leaves the
 * translation `translated` and keeps the review it had (CONTRACT "Review": a reviewed text ships
 * until the new one is reviewed).
 */
export type TextSave = Pick<TranslationRow, 'id' | 'entry_id' | 'language' | 'translation' | 'translator_id' | 'created_at' | 'updated_at' | 'base_revision'>;

/** Inserts or replaces the (entry, language) translation's text in one statement; returns the stored row. */
export async function upsertTranslation(db: Db, row: TextSave): Promise<TranslationRow> {
  const [saved] = (
    await upsertTranslationQuery(db, row.id, row.entry_id, row.language, row.translation, row.translator_id, row.created_at, row.updated_at, row.base_revision)
  ).rows;
  if (!saved) throw new Error('the translation upsert returned no row');
  return saved;
}

// Every translation save on the embedded store runs it: compiled once (prepared.ts).
const upsertTranslationQuery = prepared(
  8,
  (db, id: string, entryId: string, language: string, translation: string, translatorId: string, createdAt: string, updatedAt: string, baseRevision: number) =>
    db
      .insertInto('translations')
      .values({ id, entry_id: entryId, language, translation, translator_id: translatorId, created_at: createdAt, updated_at: updatedAt, base_revision: baseRevision })
      .onConflict((oc) =>
        oc.columns(['entry_id', 'language']).doUpdateSet((eb) => ({
          translation: eb.ref('excluded.translation'),
          translator_id: eb.ref('excluded.translator_id'),
          updated_at: eb.ref('excluded.updated_at'),
          state: 'translated',
          base_revision: eb.ref('excluded.base_revision'),
        })),
      )
      .returningAll(),
);

/** The review columns of a translation, as a review, an unreview, a confirm or a revert sets them. */
export type ReviewColumns = Pick<TranslationRow, 'state' | 'base_revision' | 'reviewed_text' | 'reviewed_by' | 'reviewed_at' | 'reviewed_revision'>;

/** Sets the (entry, language) translation's review columns; the stored row, undefined when there is none. */
export async function setReviewColumns(db: Db, entryId: string, language: string, columns: ReviewColumns): Promise<TranslationRow | undefined> {
  return db.updateTable('translations').set(columns).where('entry_id', '=', entryId).where('language', '=', language).returningAll().executeTakeFirst();
}

/** Removes the (entry, language) translation; false when there was none. */
export async function deleteTranslation(db: Db, entryId: string, language: string): Promise<boolean> {
  const result = await db.deleteFrom('translations').where('entry_id', '=', entryId).where('language', '=', language).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
