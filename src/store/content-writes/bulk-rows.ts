/**
 * Writes in bulk (an import's, a revert's): on SQLite, multi-row inserts of CHUNK rows as one prepared
 * statement text per (table, row count), with the values bound positionally; on PostgreSQL, one array
 * per column. Kysely's query builder is skipped on purpose: compiling a 2,000-row insert cost more
 * than running it (measured on the import-large bench).
 * Updates go one row at a time (an import mostly inserts). The caller runs them in its transaction.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CompiledQuery } from 'kysely';
import { isPostgres } from '../dialect.js';
import { noteRecorded } from './change-feed.js';
import type { ChangeSetRecord } from './change-log.js';
import type { Db } from '../schema.js';

/**
 * Rows per statement on SQLite (at most 32,766 bound values). Between two statements the event loop
 * answers the requests that came meanwhile: with 2,000 rows (~8 ms a statement) point reads during
 * import-large waited p50 38 / p99 420 ms once an import's ids no longer came from a worker thread
 * (whose waits had let them through); with 500, p50 11 / p99 145 ms, and the import served three
 * times the reads in ~1 s more (docs/design/history.md).
 */
const CHUNK = 500;

export const GROUP_COLUMNS = ['id', 'project_id', 'parent_id', 'technical_name', 'display_name', 'created_at'] as const;
export const ENTRY_COLUMNS = ['id', 'project_id', 'group_id', 'technical_name', 'base_term', 'base_term_key', 'context_info', 'arb_metadata', 'created_at', 'updated_at'] as const;
export const TRANSLATION_COLUMNS = ['id', 'entry_id', 'language', 'translation', 'translator_id', 'created_at', 'updated_at'] as const;
/** A translation with its review state (migration 016): a reviewing import's, a revert's that brings an entry back. */
export const REVIEWED_TRANSLATION_COLUMNS = [...TRANSLATION_COLUMNS, 'state', 'reviewed_text', 'reviewed_by', 'reviewed_at', 'reviewed_revision'] as const;
export const MISSING_COLUMNS = ['entry_id', 'language', 'project_id', 'created_at'] as const;
export const CHANGE_COLUMNS = ['change_set_id', 'project_id', 'version', 'target', 'op', 'group_id', 'entry_id', 'language', 'key', 'before_json', 'after_json', 'bundled'] as const;

type Table = 'groups' | 'entries' | 'translations' | 'missing_translations' | 'changes';
export type Row = ReadonlyArray<string | null>;

const statements = new Map<string, string>();

/** `insert into t (a, b) values (?, ?), (?, ?)…` for `rows` rows (SQLite); made once per shape. */
function insertText(table: Table, columns: readonly string[], rows: number): string {
  const key = `${table}:${columns.length}:${rows}`;
  let text = statements.get(key);
  if (!text) {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    text = `insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: rows }, () => tuple).join(', ')}`;
    statements.set(key, text);
  }
  return text;
}

/**
 * Inserts rows (each in `columns` order), CHUNK at a time. Rows are made by `rowAt` on demand, so a
 * million translations never exist as a million row arrays at once.
 */
async function insertRows(db: Db, table: Table, columns: readonly string[], count: number, rowAt: (index: number) => Row): Promise<void> {
  if (isPostgres(db)) return insertColumns(db, table, columns, count, rowAt);
  for (let start = 0; start < count; start += CHUNK) {
    const end = Math.min(count, start + CHUNK);
    const values: (string | null)[] = [];
    for (let i = start; i < end; i += 1) for (const value of rowAt(i)) values.push(value);
    await db.executeQuery(CompiledQuery.raw(insertText(table, columns, end - start), values));
    // Between chunks, let the event loop serve what it can (PostgreSQL answers other requests meanwhile).
    if (end < count) await yieldToEventLoop();
  }
}

/** Rows per statement on PostgreSQL, where each column travels as one array (no bound-value limit). */
const COLUMN_CHUNK = 10_000;
/**
 * The change log's: a bundle holds an entry's texts in every language (migration 015), and pg encodes
 * each column as one array text; 10,000 of them made several MB of it per statement, and import-large
 * peaked at 537 MB of RSS, with reads meanwhile p99 ~105 ms while the import collected that garbage.
 * With 2,000: ~470 MB, p99 ~37 ms, and no slower (docs/design/history.md, fourth session).
 */
const CHANGE_COLUMN_CHUNK = 2_000;

/** The bulk tables' columns that are not text (unnest needs each array's type). */
const NOT_TEXT: Readonly<Record<string, string>> = { version: 'integer', bundled: 'integer', reviewed_revision: 'integer' };

/**
 * PostgreSQL: `insert … select * from unnest($1::text[], …)`, one array per column. A 2,000-row VALUES
 * list of 22,000 bound values is parsed and planned value by value; the arrays are one value each
 * (import-large on PostgreSQL, with a million recorded changes, 43.9 → 39.2 s: docs/design/history.md).
 */
async function insertColumns(db: Db, table: Table, columns: readonly string[], count: number, rowAt: (index: number) => Row): Promise<void> {
  const arrays = columns.map((column, index) => `$${index + 1}::${NOT_TEXT[column] ?? 'text'}[]`).join(', ');
  const text = `insert into ${table} (${columns.join(', ')}) select * from unnest(${arrays})`;
  const chunk = table === 'changes' ? CHANGE_COLUMN_CHUNK : COLUMN_CHUNK;
  for (let start = 0; start < count; start += chunk) {
    const end = Math.min(count, start + chunk);
    const values: (string | null)[][] = columns.map(() => new Array<string | null>(end - start));
    for (let i = start; i < end; i += 1) {
      const row = rowAt(i);
      for (let column = 0; column < columns.length; column += 1) values[column]![i - start] = row[column]!;
    }
    await db.executeQuery(CompiledQuery.raw(text, values));
    if (end < count) await yieldToEventLoop();
  }
}

/** What an import's set says it imported (change_sets.import_summary, migration 013). */
export interface ImportSummary {
  format: string;
  translations: number;
  entries: number;
  groups: number;
}

/** The import's change set, with its summaries (its changes follow through insertRows). */
export async function insertChangeSet(
  db: Db,
  set: ChangeSetRecord,
  summary: { created: number; updated: number; deleted: number },
  imported: ImportSummary,
): Promise<void> {
  await db
    .insertInto('change_sets')
    .values({
      id: set.id,
      project_id: set.projectId,
      version: set.version,
      source: set.source,
      user_id: set.userId,
      api_key_id: set.apiKeyId,
      created_at: set.createdAt,
      created_count: summary.created,
      updated_count: summary.updated,
      deleted_count: summary.deleted,
      revert_of: set.revertOf,
      import_summary: JSON.stringify(imported),
    })
    .execute();
  noteRecorded(db, set);
}

type RowsOf = (db: Db, count: number, rowAt: (index: number) => Row) => Promise<void>;

/** Groups, each `[id, project_id, parent_id, technical_name, display_name, created_at]`, parents first. */
export const insertGroupRows: RowsOf = (db, count, rowAt) => insertRows(db, 'groups', GROUP_COLUMNS, count, rowAt);
/** Entries, each in ENTRY_COLUMNS' order. */
export const insertEntryRows: RowsOf = (db, count, rowAt) => insertRows(db, 'entries', ENTRY_COLUMNS, count, rowAt);
/** Translations, each in TRANSLATION_COLUMNS' order. */
export const insertTranslationRows: RowsOf = (db, count, rowAt) => insertRows(db, 'translations', TRANSLATION_COLUMNS, count, rowAt);
/** Translations with their review state, each in REVIEWED_TRANSLATION_COLUMNS' order (the revision as decimal text). */
export const insertReviewedTranslationRows: RowsOf = (db, count, rowAt) => insertRows(db, 'translations', REVIEWED_TRANSLATION_COLUMNS, count, rowAt);
/** Missing-translation rows, each `[entry_id, language, project_id, created_at]`. */
export const insertMissingRows: RowsOf = (db, count, rowAt) => insertRows(db, 'missing_translations', MISSING_COLUMNS, count, rowAt);
/** A set's changes, each in CHANGE_COLUMNS' order (the set itself: insertChangeSet). */
export const insertChangeRows: RowsOf = (db, count, rowAt) => insertRows(db, 'changes', CHANGE_COLUMNS, count, rowAt);

/** Removes the missing-translation rows of pairs that got a translation. */
export async function deleteMissing(db: Db, pairs: readonly { entryId: string; language: string }[]): Promise<void> {
  for (const { entryId, language } of pairs) {
    await db.deleteFrom('missing_translations').where('entry_id', '=', entryId).where('language', '=', language).execute();
  }
}

export async function updateTranslationText(db: Db, entryId: string, language: string, set: { translation: string; translator_id: string; updated_at: string }): Promise<void> {
  await db.updateTable('translations').set(set).where('entry_id', '=', entryId).where('language', '=', language).execute();
}
