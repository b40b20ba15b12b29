/** Entries and their translations. */
import { sql } from 'kysely';
import { byTechnicalName } from '../dialect.js';
import type { Db, EntryRow, TranslationRow } from '../schema.js';
import { prepared } from '../prepared.js';

/** Escapes LIKE metacharacters so that `%`, `_` and `\` in search text match themselves. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Inserts an entry. */
export async function insertEntry(db: Db, entry: EntryRow): Promise<void> {
  await db.insertInto('entries').values(entry).execute();
}

/** The entry by id, if any. */
export async function findEntry(db: Db, entryId: string): Promise<EntryRow | undefined> {
  const [row] = (await entryQuery(db, entryId)).rows;
  return row;
}

const entryQuery = prepared(1, (db, entryId: string) => db.selectFrom('entries').selectAll().where('id', '=', entryId));

/** A page of a group's entries by technical name, optionally filtered (case-insensitive substring). */
export async function listGroupEntries(db: Db, groupId: string, search: string | undefined, limit: number, offset: number) {
  let scope = db.selectFrom('entries').where('group_id', '=', groupId);
  if (search !== undefined && search !== '') {
    const pattern = likePattern(search.toLowerCase());
    // SQLite has no default LIKE escape character, so name it for both dialects.
    scope = scope.where(
      sql<boolean>`(lower(technical_name) like ${pattern} escape '\\' or base_term_key like ${pattern} escape '\\')`,
    );
  }
  const [rows, count] = await Promise.all([
    scope.selectAll().orderBy(byTechnicalName(db)).orderBy('id').limit(limit).offset(offset).execute(),
    scope.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Applies the given changes to an entry. */
export async function updateEntry(
  db: Db,
  entryId: string,
  changes: Partial<Pick<EntryRow, 'technical_name' | 'base_term' | 'base_term_key' | 'context_info' | 'arb_metadata' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('entries').set(changes).where('id', '=', entryId).execute();
}

/** Deletes an entry with its translations (foreign-key cascade). */
export async function deleteEntry(db: Db, entryId: string): Promise<void> {
  await db.deleteFrom('entries').where('id', '=', entryId).execute();
}

/** The entry's translations in the given languages, by language. */
export async function listEntryTranslations(db: Db, entryId: string, languages: readonly string[]): Promise<TranslationRow[]> {
  if (languages.length === 0) return [];
  // All of the entry's translations (a handful), filtered here: an IN list would make the SQL differ
  // with every project's language count, and the query could not be compiled once.
  const wanted = new Set(languages);
  return (await entryTranslationsQuery(db, entryId)).rows.filter((row) => wanted.has(row.language));
}

const entryTranslationsQuery = prepared(1, (db, entryId: string) =>
  db.selectFrom('translations').selectAll().where('entry_id', '=', entryId).orderBy('language'),
);

/** The translations of several entries (one page) in the given languages, by entry and language. */
export async function listTranslationsOfEntries(db: Db, entryIds: readonly string[], languages: readonly string[]): Promise<TranslationRow[]> {
  if (entryIds.length === 0 || languages.length === 0) return [];
  return db
    .selectFrom('translations')
    .selectAll()
    .where('entry_id', 'in', entryIds)
    .where('language', 'in', languages)
    .orderBy('entry_id')
    .orderBy('language')
    .execute();
}

/** The entry's translation in one language, if any. */
export async function findTranslation(db: Db, entryId: string, language: string): Promise<TranslationRow | undefined> {
  const [row] = (await translationQuery(db, entryId, language)).rows;
  return row;
}

const translationQuery = prepared(2, (db, entryId: string, language: string) =>
  db.selectFrom('translations').selectAll().where('entry_id', '=', entryId).where('language', '=', language),
);

/** Inserts or replaces the (entry, language) translation in one statement; returns the stored row. */
export async function upsertTranslation(db: Db, row: TranslationRow): Promise<TranslationRow> {
  return db
    .insertInto('translations')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['entry_id', 'language']).doUpdateSet({
        translation: row.translation,
        translator_id: row.translator_id,
        updated_at: row.updated_at,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes the (entry, language) translation; false when there was none. */
export async function deleteTranslation(db: Db, entryId: string, language: string): Promise<boolean> {
  const result = await db.deleteFrom('translations').where('entry_id', '=', entryId).where('language', '=', language).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
