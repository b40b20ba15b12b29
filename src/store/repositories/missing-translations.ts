/**
 * The missing-translation rows: one per (entry, translation language of its project) that has no
 * translation. Every write that changes which pairs are missing calls one of these in its own
 * transaction; deletes need nothing (foreign-key cascades). A language a project gains has its rows
 * written after the change, in steps (domain/projects/change-languages.ts); until they are complete
 * (complete_missing_languages) its untranslated entries are counted from entries and translations.
 * `tolk doctor` checks the rows against entries and translations.
 */
import type { ExpressionBuilder } from 'kysely';
import { prepared } from '../prepared.js';
import type { Database, Db } from '../schema.js';

// A new entry's rows: content-writes/dialect-writes.ts insertNewEntry, in the entry's own statement on PostgreSQL.

/** The pair got its first translation. */
export async function markTranslated(db: Db, entryId: string, language: string): Promise<void> {
  await markTranslatedQuery(db, entryId, language);
}

// Every translation save on the embedded store runs it (PostgreSQL folds it into the save: content-writes/postgres-writes.ts).
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

/** Whether the project's rows of `language` are complete (complete_missing_languages, migration 010). */
export async function isComplete(db: Db, projectId: string, language: string): Promise<boolean> {
  const row = await isCompleteQuery(db, projectId, language);
  return row.rows.length > 0;
}

const isCompleteQuery = prepared(2, (db, projectId: string, language: string) =>
  db.selectFrom('complete_missing_languages').select('language').where('project_id', '=', projectId).where('language', '=', language),
);

/** The project's languages whose rows are complete. */
export async function completeLanguages(db: Db, projectId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('complete_missing_languages').select('language').where('project_id', '=', projectId).execute();
  return new Set(rows.map((row) => row.language));
}

/** Says the rows of `languages` are complete (the caller made sure, under the project's lock). */
export async function markComplete(db: Db, projectId: string, languages: readonly string[]): Promise<void> {
  if (languages.length === 0) return;
  await db
    .insertInto('complete_missing_languages')
    .values(languages.map((language) => ({ project_id: projectId, language })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Says the rows of `languages` are no longer known complete (they are being removed, or were never written). */
export async function markIncomplete(db: Db, projectId: string, languages: readonly string[]): Promise<void> {
  if (languages.length === 0) return;
  await db.deleteFrom('complete_missing_languages').where('project_id', '=', projectId).where('language', 'in', [...languages]).execute();
}

/**
 * A page of the project's entries without a translation in `language`, oldest first, and their total
 * (counted unless `knownTotal` is given: counting reads the whole index range, the page only its part).
 * From the rows when they are complete; else (a language added a moment ago, its rows still being
 * written) from the entries and translations themselves.
 */
export async function listUntranslated(db: Db, projectId: string, language: string, limit: number, offset: number, knownTotal?: number) {
  if (!(await isComplete(db, projectId, language))) return countUntranslated(db, projectId, language, limit, offset, knownTotal);
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

/** listUntranslated without the rows: the entries walked in order, each looked up among the translations. */
async function countUntranslated(db: Db, projectId: string, language: string, limit: number, offset: number, knownTotal?: number) {
  const lacking = (eb: ExpressionBuilder<Database, 'entries'>) =>
    eb.not(eb.exists(eb.selectFrom('translations as t').select('t.id').whereRef('t.entry_id', '=', 'entries.id').where('t.language', '=', language)));
  const [rows, count] = await Promise.all([
    db
      .selectFrom('entries')
      .select(['id', 'group_id', 'technical_name', 'base_term', 'context_info'])
      .where('project_id', '=', projectId)
      .where(lacking)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute(),
    knownTotal ?? countMissing(db, projectId, [language]).then((missing) => missing.get(language)!),
  ]);
  return { rows, total: count };
}

/**
 * How many entries the project has and how many lack a translation, per language of `languages`: two
 * index counts for languages whose rows are complete, entries less translations for the others.
 */
export async function countProgress(db: Db, projectId: string, languages: readonly string[]) {
  const complete = await completeLanguages(db, projectId);
  const fromRows = languages.filter((language) => complete.has(language));
  const [entries, missing, counted] = await Promise.all([
    entryCountOf(db, projectId),
    fromRows.length === 0
      ? []
      : db
          .selectFrom('missing_translations')
          .select(['language', (eb) => eb.fn.countAll().as('missing')])
          .where('project_id', '=', projectId)
          .where('language', 'in', fromRows)
          .groupBy('language')
          .execute(),
    countMissing(db, projectId, languages.filter((language) => !complete.has(language))),
  ]);
  for (const row of missing) counted.set(row.language, Number(row.missing));
  return { entryCount: entries, missing: counted };
}

async function entryCountOf(db: Db, projectId: string): Promise<number> {
  const row = await db.selectFrom('entries').select((eb) => eb.fn.countAll().as('total')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Entries less translations, per language: what the rows would say. */
export async function countMissing(db: Db, projectId: string, languages: readonly string[]): Promise<Map<string, number>> {
  if (languages.length === 0) return new Map();
  const [entries, translated] = await Promise.all([
    entryCountOf(db, projectId),
    db
      .selectFrom('translations as t')
      .innerJoin('entries as e', 'e.id', 't.entry_id')
      .select(['t.language', (eb) => eb.fn.countAll().as('translated')])
      .where('e.project_id', '=', projectId)
      .where('t.language', 'in', [...languages])
      .groupBy('t.language')
      .execute(),
  ]);
  return new Map(languages.map((language) => [language, entries - Number(translated.find((row) => row.language === language)?.translated ?? 0)]));
}
