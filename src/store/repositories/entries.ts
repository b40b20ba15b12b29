/** Entries and their translations. */
import { sql } from 'kysely';
import { byTechnicalName, isPostgres } from '../dialect.js';
import type { Db, EntryRow, TranslationRow } from '../schema.js';
import { prepared } from '../prepared.js';

/** Escapes LIKE metacharacters so that `%`, `_` and `\` in search text match themselves. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The entry by id, if any. */
export async function findEntry(db: Db, entryId: string): Promise<EntryRow | undefined> {
  const [row] = (await entryQuery(db, entryId)).rows;
  return row;
}

const entryQuery = prepared(1, (db, entryId: string) => db.selectFrom('entries').selectAll().where('id', '=', entryId));

/**
 * The entry with all its translations, in one statement: read in two, a point read that missed the
 * read cache cost PostgreSQL two round trips after its key check.
 */
export async function findEntryWithTranslations(db: Db, entryId: string): Promise<{ entry: EntryRow; translations: TranslationRow[] } | undefined> {
  const [row] = (await entryWithTranslationsQuery(db, entryId)).rows;
  if (!row) return undefined;
  const { translations: folded, ...entry } = row;
  // PostgreSQL's driver parses JSON; SQLite gives text. Both in language order (see below).
  const translations = (typeof folded === 'string' ? JSON.parse(folded) : (folded ?? [])) as TranslationRow[];
  return { entry, translations };
}

/** A translation row `t`'s columns as the arguments of json_object (SQLite) or json_build_object (PostgreSQL). */
export const TRANSLATION_FIELDS = sql.raw(
  "'id', t.id, 'entry_id', t.entry_id, 'language', t.language, 'translation', t.translation, " +
    "'translator_id', t.translator_id, 'created_at', t.created_at, 'updated_at', t.updated_at, 'state', t.state, " +
    "'base_revision', t.base_revision, 'reviewed_text', t.reviewed_text, 'reviewed_by', t.reviewed_by, 'reviewed_at', t.reviewed_at, " +
    "'reviewed_revision', t.reviewed_revision",
);

// The translations folded into one JSON array in language order (as the API lists them): PostgreSQL
// orders the aggregate itself; SQLite aggregates the rows in the order of the subquery that feeds it.
const entryWithTranslationsQuery = prepared(1, (db, entryId: string) =>
  db
    .selectFrom('entries as e')
    .selectAll('e')
    .select(
      (isPostgres(db)
        ? sql<unknown>`(select json_agg(json_build_object(${TRANSLATION_FIELDS}) order by t.language) from translations t where t.entry_id = e.id)`
        : sql<unknown>`(select json_group_array(json_object(${TRANSLATION_FIELDS})) from (select * from translations where entry_id = e.id order by language) t)`
      ).as('translations'),
    )
    .where('e.id', '=', entryId),
);

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
  if (!isPostgres(db)) {
    // SQLite: two statements, each cheap. A window count there reads the whole scope before the first
    // row (the rows' index order no longer lets LIMIT stop early): mixed load −13 % (tmp harness).
    const rows = await scope.selectAll().orderBy(byTechnicalName(db)).orderBy('id').limit(limit).offset(offset).execute();
    // A page that ends before the limit is the last: the total is known without a count (most searches).
    if (rows.length < limit && (rows.length > 0 || offset === 0)) return { rows, total: offset + rows.length };
    const count = await scope.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
    return { rows, total: Number(count.total) };
  }
  // PostgreSQL: the total comes with the rows (a window count), one round trip instead of two.
  const counted = await scope
    .selectAll()
    .select(sql<number | string>`count(*) over ()`.as('total_in_scope'))
    .orderBy(byTechnicalName(db))
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  const rows: EntryRow[] = counted.map(({ total_in_scope: _total, ...row }) => row);
  if (counted.length > 0) return { rows, total: Number(counted[0]!.total_in_scope) };
  // No row to carry the count: an empty group or scope, or an offset past its end.
  const count = offset === 0 ? { total: 0 } : await scope.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  return { rows, total: Number(count.total) };
}

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

/** Every translation of the entry (a delete's record). */
export async function listTranslationsOfEntry(db: Db, entryId: string): Promise<TranslationRow[]> {
  return db.selectFrom('translations').selectAll().where('entry_id', '=', entryId).execute();
}

