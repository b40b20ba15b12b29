/**
 * Bundles (migration 015): an import records its translation changes one row of `changes` per entry
 * and op, not one per translation. Such a row has target `translation`, no language, `bundled` = how
 * many changes it holds, and `before_json`/`after_json` as objects by language, each value a
 * translation's fields as fieldsForLog stores them. Every reader takes each language as a change of
 * its own: this module is the one place that writes and reads the form, in JavaScript and in SQL.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { isPostgres } from '../dialect.js';
import type { Db } from '../schema.js';

/** A bundle's `before_json`/`after_json`: each language's stored fields (fieldsForLog's JSON), in order. */
export function bundleJson(fields: Iterable<readonly [language: string, json: string]>): string {
  let json = '';
  for (const [language, value] of fields) json += `${json === '' ? '{' : ','}${JSON.stringify(language)}:${value}`;
  return json === '' ? '{}' : `${json}}`;
}

/** The change columns a row of `changes` has (a bundle, or a change of its own). */
interface LoggedRow {
  id: string;
  target: string;
  language: string | null;
  before_json: string | null;
  after_json: string | null;
  bundled?: number | string | null;
}

const isBundle = (row: LoggedRow): boolean => row.bundled !== null && row.bundled !== undefined;

/**
 * The row's changes: itself, or a bundle's, one per language in the order the import wrote them,
 * each with its id (`<row id>.<language>`), language and fields as a change of its own has them.
 * With `language`, only that language's (a bundle without it: none).
 */
export function changesOfRow<R extends LoggedRow>(row: R, language?: string): R[] {
  if (!isBundle(row)) return [row];
  const after = parseFields(row.after_json);
  const before = parseFields(row.before_json);
  const changes: R[] = [];
  for (const key of Object.keys(after ?? before ?? {})) {
    if (language !== undefined && key !== language) continue;
    changes.push({ ...row, id: bundledChangeId(row.id, key), language: key, before_json: fieldsOf(before, key), after_json: fieldsOf(after, key), bundled: null });
  }
  return changes;
}

const parseFields = (json: string | null): Record<string, unknown> | null => (json === null ? null : (JSON.parse(json) as Record<string, unknown>));

const fieldsOf = (fields: Record<string, unknown> | null, language: string): string | null => (fields === null || !(language in fields) ? null : JSON.stringify(fields[language]));

const bundledChangeId = (rowId: string, language: string) => `${rowId}.${language}`;

/** A change id as the API shows a row's (a decimal string) or a bundle's change (`<row id>.<language>`); null when `id` is neither. */
export function parseChangeId(id: string): { rowId: number; language: string | null } | null {
  const match = /^([1-9][0-9]{0,15})(?:\.([A-Za-z0-9_-]{1,35}))?$/.exec(id);
  return match ? { rowId: Number(match[1]), language: match[2] ?? null } : null;
}

/** Whether the row `alias` of `changes` holds a change in `language`: its own, or one of a bundle's (SQL). */
export function holdsLanguage(db: Db, alias: string, language: RawBuilder<unknown> | string): RawBuilder<SqlBool> {
  const row = (column: string) => sql.ref(`${alias}.${column}`);
  const inBundle = isPostgres(db)
    ? sql`jsonb_exists(cast(${row('after_json')} as jsonb), ${language})`
    : sql`json_type(${row('after_json')}, '$."' || ${language} || '"') is not null`;
  return sql<SqlBool>`(${row('language')} = ${language} or (${row('bundled')} is not null and ${inBundle}))`;
}

/** The languages of the bundle `alias` of `changes`, as a table `bundle_language` of one column, `key`, to select from (SQL). */
export function bundleLanguages(db: Db, alias: string): RawBuilder<unknown> {
  const after = sql.ref(`${alias}.after_json`);
  return isPostgres(db) ? sql`json_object_keys(cast(${after} as json)) as bundle_language(key)` : sql`json_each(${after}) as bundle_language`;
}

/** The number of changes rows of `changes` under `alias` hold: a bundle its count, any other row one (SQL). */
export const changeCount = (alias: string): RawBuilder<number | string> => sql`coalesce(sum(coalesce(${sql.ref(`${alias}.bundled`)}, 1)), 0)`;
