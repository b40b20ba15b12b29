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
import { afterSetRecorded, type ChangeSetRecord } from './change-log.js';
import type { Db, TranslationRow } from '../schema.js';

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
/** An import's translation: written against its entry's base revision (0 for an entry the import creates). */
export const IMPORTED_TRANSLATION_COLUMNS = [...TRANSLATION_COLUMNS, 'base_revision'] as const;
/** An import's translation under markReviewed: written and reviewed against its entry's base revision. */
export const IMPORTED_REVIEWED_COLUMNS = [...REVIEWED_TRANSLATION_COLUMNS, 'base_revision'] as const;
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
const NOT_TEXT: Readonly<Record<string, string>> = { version: 'integer', bundled: 'integer', reviewed_revision: 'integer', base_revision: 'integer' };

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
  await afterSetRecorded(db, set);
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
/** An import's translations, each in IMPORTED_TRANSLATION_COLUMNS' order (the revision as decimal text). */
export const insertImportedTranslationRows: RowsOf = (db, count, rowAt) => insertRows(db, 'translations', IMPORTED_TRANSLATION_COLUMNS, count, rowAt);
/** An import's reviewed translations (markReviewed), each in IMPORTED_REVIEWED_COLUMNS' order (the revisions as decimal text). */
export const insertImportedReviewedRows: RowsOf = (db, count, rowAt) => insertRows(db, 'translations', IMPORTED_REVIEWED_COLUMNS, count, rowAt);
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

/**
 * What an import writes over a stored translation: the text, by whom, `translated` against the entry's
 * base revision with the review it keeps left as it is (as a save: CONTRACT "Review"), or, under
 * markReviewed, `reviewed` with the review columns of the importer's review.
 */
export type ImportedText = Pick<TranslationRow, 'translation' | 'translator_id' | 'updated_at' | 'state' | 'base_revision'> &
  Partial<Pick<TranslationRow, 'reviewed_text' | 'reviewed_by' | 'reviewed_at' | 'reviewed_revision'>>;

/** Replaces the (entry, language) translation's text (and its state) with what the import writes. */
export async function updateTranslationText(db: Db, entryId: string, language: string, set: ImportedText): Promise<void> {
  await db.updateTable('translations').set(set).where('entry_id', '=', entryId).where('language', '=', language).execute();
}

/**
 * Marks the (entry, language) translations reviewed by `userId` at `at`: their text as it is stored,
 * against their entry's base revision as it is now (an import's markReviewed of the texts it leaves
 * unchanged, after its entry updates). CHUNK pairs a statement, not one round trip each: a push of a
 * whole app with --mark-reviewed reviews every text it has.
 */
export async function reviewTranslationRows(db: Db, count: number, pairAt: (index: number) => readonly [entryId: string, language: string], userId: string, at: string): Promise<void> {
  for (let start = 0; start < count; start += CHUNK) {
    const end = Math.min(count, start + CHUNK);
    const entryIds: string[] = [];
    const languages: string[] = [];
    for (let i = start; i < end; i += 1) {
      const [entryId, language] = pairAt(i);
      entryIds.push(entryId);
      languages.push(language);
    }
    if (isPostgres(db)) {
      await db.executeQuery(CompiledQuery.raw(REVIEW_POSTGRES, [userId, at, entryIds, languages]));
    } else {
      const pairs = entryIds.flatMap((entryId, i) => [entryId, languages[i]!]);
      await db.executeQuery(CompiledQuery.raw(reviewTextSqlite(end - start), [userId, at, ...pairs]));
    }
    if (end < count) await yieldToEventLoop();
  }
}

const REVIEW_POSTGRES = `update translations t set state = 'reviewed', reviewed_text = t.translation, reviewed_by = $1, reviewed_at = $2,
    base_revision = e.base_revision, reviewed_revision = e.base_revision
  from unnest($3::text[], $4::text[]) as p(entry_id, language), entries e
  where t.entry_id = p.entry_id and t.language = p.language and e.id = t.entry_id`;

/** The SQLite review of `pairs` (entry, language) pairs; made once per count. */
function reviewTextSqlite(pairs: number): string {
  const key = `review:${pairs}`;
  let text = statements.get(key);
  if (!text) {
    const revision = '(select e.base_revision from entries e where e.id = translations.entry_id)';
    text =
      `update translations set state = 'reviewed', reviewed_text = translation, reviewed_by = ?, reviewed_at = ?, base_revision = ${revision}, reviewed_revision = ${revision} ` +
      `where (entry_id, language) in (values ${Array.from({ length: pairs }, () => '(?, ?)').join(', ')})`;
    statements.set(key, text);
  }
  return text;
}
