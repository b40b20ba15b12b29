/**
 * An import's writes, in bulk: multi-row inserts in chunks (SQLite takes at most 32,766 bound values a
 * statement; PostgreSQL 65,535), updates one row at a time (an import mostly inserts). The caller runs
 * them in its transaction.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Db, EntryRow, GroupRow, MissingTranslationsTable, TranslationRow } from '../schema.js';

/** Rows per insert: 2,000 × at most 10 columns stays under either store's limit of bound values. */
const CHUNK = 2000;

async function insertChunks<T>(rows: readonly T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    await insert(rows.slice(start, start + CHUNK));
    // Between chunks, let the event loop serve what it can (PostgreSQL answers other requests meanwhile).
    if (start + CHUNK < rows.length) await yieldToEventLoop();
  }
}

export async function insertGroups(db: Db, rows: readonly GroupRow[]): Promise<void> {
  await insertChunks(rows, (chunk) => db.insertInto('groups').values(chunk).execute());
}

export async function insertEntries(db: Db, rows: readonly EntryRow[]): Promise<void> {
  await insertChunks(rows, (chunk) => db.insertInto('entries').values(chunk).execute());
}

export async function insertTranslations(db: Db, rows: readonly TranslationRow[]): Promise<void> {
  await insertChunks(rows, (chunk) => db.insertInto('translations').values(chunk).execute());
}

export async function insertMissing(db: Db, rows: readonly MissingTranslationsTable[]): Promise<void> {
  await insertChunks(rows, (chunk) => db.insertInto('missing_translations').values(chunk).execute());
}

/** Removes the missing-translation rows of pairs that got a translation. */
export async function deleteMissing(db: Db, pairs: readonly { entryId: string; language: string }[]): Promise<void> {
  for (const { entryId, language } of pairs) {
    await db.deleteFrom('missing_translations').where('entry_id', '=', entryId).where('language', '=', language).execute();
  }
}

export async function updateEntryFields(
  db: Db,
  entryId: string,
  set: Partial<Pick<EntryRow, 'base_term' | 'base_term_key' | 'context_info' | 'arb_metadata' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('entries').set(set).where('id', '=', entryId).execute();
}

export async function updateTranslationText(db: Db, entryId: string, language: string, set: Pick<TranslationRow, 'translation' | 'translator_id' | 'updated_at'>): Promise<void> {
  await db.updateTable('translations').set(set).where('entry_id', '=', entryId).where('language', '=', language).execute();
}
