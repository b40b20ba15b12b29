/** A translation's own rows: the plain statements the dialects' writes and a revert are made of. */
import { prepared } from '../prepared.js';
import type { Db, TranslationRow } from '../schema.js';

/** Inserts or replaces the (entry, language) translation in one statement; returns the stored row. */
export async function upsertTranslation(db: Db, row: TranslationRow): Promise<TranslationRow> {
  const [saved] = (await upsertTranslationQuery(db, row.id, row.entry_id, row.language, row.translation, row.translator_id, row.created_at, row.updated_at)).rows;
  if (!saved) throw new Error('the translation upsert returned no row');
  return saved;
}

// Every translation save on the embedded store runs it: compiled once (prepared.ts).
const upsertTranslationQuery = prepared(
  7,
  (db, id: string, entryId: string, language: string, translation: string, translatorId: string, createdAt: string, updatedAt: string) =>
    db
      .insertInto('translations')
      .values({ id, entry_id: entryId, language, translation, translator_id: translatorId, created_at: createdAt, updated_at: updatedAt })
      .onConflict((oc) =>
        oc.columns(['entry_id', 'language']).doUpdateSet((eb) => ({
          translation: eb.ref('excluded.translation'),
          translator_id: eb.ref('excluded.translator_id'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .returningAll(),
);

/** Removes the (entry, language) translation; false when there was none. */
export async function deleteTranslation(db: Db, entryId: string, language: string): Promise<boolean> {
  const result = await db.deleteFrom('translations').where('entry_id', '=', entryId).where('language', '=', language).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
