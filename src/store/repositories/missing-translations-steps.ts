/**
 * The missing-translation rows of a project whose languages changed, written and deleted in bounded
 * steps after the change (domain/projects/change-languages.ts): one statement for 5,000 entries × 200
 * languages held the embedded store's event loop for 24 s.
 */
import { sql, type RawBuilder } from 'kysely';
import { isPostgres } from '../dialect.js';
import type { Db } from '../schema.js';
import { countMissing } from './missing-translations.js';

/** Where a step stopped: entries are walked in the order new entries come in, (created_at, id). */
export interface EntryPosition {
  created_at: string;
  id: string;
}

/**
 * About how many rows one step writes or deletes: 10,000 held SQLite's event loop ~0.1–0.4 s on a
 * loaded machine (in steps of 2,000 the whole took 2.5 times as long), and PostgreSQL's steps hold
 * the project's content writes off as long.
 */
export function rowsPerStep(_db: Db): number {
  return 10_000;
}

/** The values of `list` as a table with one column, `value`. */
function tableOf(db: Db, list: readonly string[], alias: string): RawBuilder<unknown> {
  const json = JSON.stringify(list);
  return isPostgres(db) ? sql`json_array_elements_text(cast(${json} as json)) as ${sql.raw(alias)}(value)` : sql`json_each(${json}) as ${sql.raw(alias)}`;
}

/**
 * Holds off the project's content writes until the transaction ends (PostgreSQL: they take its row's
 * lock, which `shared` steps of a language change still share with each other; SQLite runs one write
 * at a time anyway): a translation saved meanwhile is seen by the step, and counts cannot change.
 */
export async function holdProjectWrites(db: Db, projectId: string, mode: 'shared' | 'exclusive'): Promise<void> {
  if (isPostgres(db)) await sql`select 1 from projects where id = ${projectId} for ${sql.raw(mode === 'shared' ? 'share' : 'update')}`.execute(db);
}

/** The project's next `limit` entries after `after` (from the first when null). */
export async function nextEntries(db: Db, projectId: string, after: EntryPosition | null, limit: number): Promise<EntryPosition[]> {
  let query = db.selectFrom('entries').select(['created_at', 'id']).where('project_id', '=', projectId);
  if (after) {
    query = query.where((eb) => eb.or([eb('created_at', '>', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)])]));
  }
  return query.orderBy('created_at').orderBy('id').limit(limit).execute();
}

/** Records which of `languages` the given entries of the project have no translation in (rows already there stay). */
export async function recordMissingOf(db: Db, projectId: string, entryIds: readonly string[], languages: readonly string[]): Promise<void> {
  await recordMissing(db, projectId, languages, sql`e.id in (select value from ${tableOf(db, entryIds, 'i')})`);
}

/** The same for the project's entries after `after` (all of them when null). */
export async function recordMissingAfter(db: Db, projectId: string, after: EntryPosition | null, languages: readonly string[]): Promise<void> {
  const later = after ? sql`(e.created_at > ${after.created_at} or (e.created_at = ${after.created_at} and e.id > ${after.id}))` : sql`1 = 1`;
  await recordMissing(db, projectId, languages, later);
}

async function recordMissing(db: Db, projectId: string, languages: readonly string[], entries: RawBuilder<unknown>): Promise<void> {
  if (languages.length === 0) return;
  await sql`
    insert into missing_translations (entry_id, language, project_id, created_at)
    select e.id, l.value, e.project_id, e.created_at from entries e cross join ${tableOf(db, languages, 'l')}
    where e.project_id = ${projectId} and ${entries}
      and not exists (select 1 from translations t where t.entry_id = e.id and t.language = l.value)
    on conflict do nothing`.execute(db);
}

/** Those of `languages` whose rows do not say every entry of the project without a translation in it (counted, not compared). */
export async function incompleteLanguages(db: Db, projectId: string, languages: readonly string[]): Promise<string[]> {
  const [expected, recorded] = await Promise.all([
    countMissing(db, projectId, languages),
    db
      .selectFrom('missing_translations')
      .select(['language', (eb) => eb.fn.countAll().as('total')])
      .where('project_id', '=', projectId)
      .where('language', 'in', [...languages])
      .groupBy('language')
      .execute(),
  ]);
  const recordedOf = (language: string) => Number(recorded.find((row) => row.language === language)?.total ?? 0);
  return languages.filter((language) => recordedOf(language) !== expected.get(language));
}

/** Deletes the given entries' rows in `languages`: entry by entry, as they were written (in the order of the rows' key). */
export async function forgetMissingOf(db: Db, projectId: string, entryIds: readonly string[], languages: readonly string[]): Promise<void> {
  if (languages.length === 0) return;
  await sql`
    delete from missing_translations
    where entry_id in (select value from ${tableOf(db, entryIds, 'i')}) and language in (select value from ${tableOf(db, languages, 'l')})
      and project_id = ${projectId}`.execute(db);
}
