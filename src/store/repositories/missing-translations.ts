/**
 * The missing-translation rows: one per (entry, translation language of its project) that has no
 * translation. Every write that changes which pairs are missing calls one of these in its own
 * transaction; deletes need nothing (foreign-key cascades). `tolk doctor` checks the rows against
 * entries and translations.
 */
import { sql } from 'kysely';
import { prepared } from '../prepared.js';
import type { Db } from '../schema.js';

// A new entry's rows: content-writes.ts insertNewEntry, in the entry's own statement on PostgreSQL.

/** The pair got its first translation. */
export async function markTranslated(db: Db, entryId: string, language: string): Promise<void> {
  await markTranslatedQuery(db, entryId, language);
}

// Every translation save on the embedded store runs it (PostgreSQL folds it into the save: content-writes.ts).
const markTranslatedQuery = prepared(2, (db, entryId: string, language: string) =>
  db.deleteFrom('missing_translations').where('entry_id', '=', entryId).where('language', '=', language),
);

/** The pair lost its translation (the language being one of the project's). */
export async function markUntranslated(db: Db, entryId: string, language: string): Promise<void> {
  await db
    .insertInto('missing_translations')
    .columns(['entry_id', 'language', 'project_id', 'created_at'])
    .expression((eb) => eb.selectFrom('entries').select(['id', eb.val(language).as('language'), 'project_id', 'created_at']).where('id', '=', entryId))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * Brings the project's rows in line with its translation languages after they changed: a removed
 * language's rows go, an added language's rows come for every entry without a translation in it
 * (a translation kept from when the language was listed before counts).
 */
export async function syncMissingForProject(db: Db, projectId: string, languages: readonly string[]): Promise<void> {
  let stale = db.deleteFrom('missing_translations').where('project_id', '=', projectId);
  if (languages.length > 0) stale = stale.where('language', 'not in', [...languages]);
  await stale.execute();
  for (const language of languages) {
    await sql`
      insert into missing_translations (entry_id, language, project_id, created_at)
      select e.id, ${language}, e.project_id, e.created_at from entries e
      where e.project_id = ${projectId}
        and not exists (select 1 from translations t where t.entry_id = e.id and t.language = ${language})
      on conflict do nothing`.execute(db);
  }
}

/**
 * A page of the project's entries without a translation in `language`, oldest first, and their total
 * (counted unless `knownTotal` is given: counting reads the whole index range, the page only its part).
 */
export async function listUntranslated(db: Db, projectId: string, language: string, limit: number, offset: number, knownTotal?: number) {
  const scope = db.selectFrom('missing_translations as m').where('m.project_id', '=', projectId).where('m.language', '=', language);
  // The page is chosen on the index alone (offset included); only its rows are then joined to entries.
  const page = scope.select('m.entry_id').orderBy('m.created_at').orderBy('m.entry_id').limit(limit).offset(offset);
  const [rows, count] = await Promise.all([
    db
      .selectFrom('entries as e')
      .innerJoin(page.as('p'), 'p.entry_id', 'e.id')
      .select(['e.id', 'e.group_id', 'e.technical_name', 'e.base_term', 'e.context_info'])
      .orderBy('e.created_at')
      .orderBy('e.id')
      .execute(),
    knownTotal ?? scope.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow().then((row) => Number(row.total)),
  ]);
  return { rows, total: count };
}

/** How many entries the project has and how many lack a translation, per language (two index counts). */
export async function countProgress(db: Db, projectId: string) {
  const [entries, missing] = await Promise.all([
    db.selectFrom('entries').select((eb) => eb.fn.countAll().as('total')).where('project_id', '=', projectId).executeTakeFirstOrThrow(),
    db
      .selectFrom('missing_translations')
      .select(['language', (eb) => eb.fn.countAll().as('missing')])
      .where('project_id', '=', projectId)
      .groupBy('language')
      .execute(),
  ]);
  return { entryCount: Number(entries.total), missing: new Map(missing.map((row) => [row.language, Number(row.missing)])) };
}
