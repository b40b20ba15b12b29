/** The reads behind exports: a project's outline, then its entries with the texts they ship, a batch at a time. */
import { sql, type RawBuilder } from 'kysely';
import { isPostgres } from '../dialect.js';
import { prepared } from '../prepared.js';
import type { Db } from '../schema.js';

export interface ExportRow {
  id: string;
  groupId: string;
  technicalName: string;
  baseTerm: string;
  contextInfo: string | null;
  /** the ARB `@key` metadata an import kept (JSON), for the Flutter export */
  arbMetadata: string | null;
  /** language → the text it ships (ShippedTexts); only the languages that have one */
  translations: Record<string, string>;
}

/**
 * Which text of each translation an export reads (CONTRACT "Review"): `latest` its current one;
 * `reviewed` the text its last review approved, where it keeps one; `reviewed-current` that text only
 * where the review was made against the entry's current base term (a minor edit does not move it). A
 * translation without such a text is left out of the entry's object, as a missing one is.
 */
export type ShippedTexts = 'latest' | 'reviewed' | 'reviewed-current';

/** The translations a shipped text comes from, and which of their columns holds it. */
const SHIPPED: Readonly<Record<ShippedTexts, { text: RawBuilder<unknown>; kept: RawBuilder<unknown> }>> = {
  latest: { text: sql`t.translation`, kept: sql`` },
  reviewed: { text: sql`t.reviewed_text`, kept: sql` and t.reviewed_text is not null` },
  // keptReview() reads a review without its revision as made against revision 0: so does this.
  'reviewed-current': { text: sql`t.reviewed_text`, kept: sql` and t.reviewed_text is not null and coalesce(t.reviewed_revision, 0) >= e.base_revision` },
};

/**
 * An entry's translations as one JSON object (language → text), made by the database. One row per
 * entry instead of one per translation: the rows, not the bytes, are what a driver spends its time on
 * (measured: 100,000 entries × 9 languages in 1.7 s folded, 2.3 s as 820,000 rows).
 */
function foldedTranslationsOf(db: Db, shipped: ShippedTexts) {
  const { text, kept } = SHIPPED[shipped];
  return isPostgres(db)
    ? sql<unknown>`(select json_object_agg(t.language, ${text}) from translations t where t.entry_id = e.id${kept})`
    : sql<unknown>`(select json_group_object(t.language, ${text}) from translations t where t.entry_id = e.id${kept})`;
}

/** SQLite returns the folded object as JSON text, PostgreSQL (through pg) already parsed, or null for none. */
function foldedTranslations(value: unknown): Record<string, string> {
  if (value === null || value === undefined) return {};
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, string>;
}

/** An entry's place in the project: all an export's outline needs of it (no texts). */
export interface EntryPlace {
  id: string;
  groupId: string;
  technicalName: string;
}

/** Every entry of the project, without texts: ~60 bytes an entry however many languages it has. */
export async function exportPlaces(db: Db, projectId: string): Promise<EntryPlace[]> {
  // The rows themselves are the places: 100,000 more objects would be garbage at once.
  return db.selectFrom('entries').select(['id', 'group_id as groupId', 'technical_name as technicalName']).where('project_id', '=', projectId).execute();
}

/** Entries of one group whose names are in [first, last] (in the database's order of names). */
export interface EntryRun {
  groupId: string;
  first: string;
  last: string;
}

/**
 * The entries in `runs` with their `shipped` texts folded (foldedTranslationsOf), in no particular order:
 * each run one range of the (project, group, name) index, read in index order, which is a third
 * cheaper than looking every entry up by id (measured: 100,000 entries × 10 languages, SQLite 1.15 s
 * against 1.5 s, PostgreSQL 1.8 s against 2.7 s). The runs come as one parameter each, so the
 * statement stays the same from batch to batch.
 */
export async function exportRowsByRuns(db: Db, projectId: string, runs: readonly EntryRun[], shipped: ShippedTexts): Promise<ExportRow[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<FoldedRow>`
      select e.id, e.group_id, e.technical_name, e.base_term, e.context_info, e.arb_metadata, ${foldedTranslationsOf(db, shipped)} as translations
      from unnest(${runs.map((run) => run.groupId)}::text[], ${runs.map((run) => run.first)}::text[], ${runs.map((run) => run.last)}::text[]) as r(group_id, first_name, last_name)
      join entries e on e.project_id = ${projectId} and e.group_id = r.group_id and e.technical_name between r.first_name and r.last_name`.execute(db);
    return rows.map(exportRow);
  }
  // CROSS JOIN fixes the loop order (SQLite's planner would scan the project's entries once per run).
  const { rows } = await sql<FoldedRow>`
    select e.id, e.group_id, e.technical_name, e.base_term, e.context_info, e.arb_metadata, ${foldedTranslationsOf(db, shipped)} as translations
    from json_each(${JSON.stringify(runs.map((run) => [run.groupId, run.first, run.last]))}) r
    cross join entries e on e.project_id = ${projectId} and e.group_id = r.value ->> 0 and e.technical_name between r.value ->> 1 and r.value ->> 2`.execute(db);
  return rows.map(exportRow);
}

interface FoldedRow {
  id: string;
  group_id: string;
  technical_name: string;
  base_term: string;
  context_info: string | null;
  arb_metadata: string | null;
  translations: unknown;
}

const exportRow = (row: FoldedRow): ExportRow => ({
  id: row.id,
  groupId: row.group_id,
  technicalName: row.technical_name,
  baseTerm: row.base_term,
  contextInfo: row.context_info,
  arbMetadata: row.arb_metadata,
  translations: foldedTranslations(row.translations),
});

/**
 * The entries of `ids` with their `shipped` texts folded (foldedTranslationsOf), in no particular order.
 * One parameter whatever the number of ids (a JSON array on SQLite, an array on PostgreSQL), so the
 * statement stays the same from batch to batch.
 */
export async function exportRowsById(db: Db, ids: readonly string[], shipped: ShippedTexts): Promise<ExportRow[]> {
  const wanted = isPostgres(db) ? sql<boolean>`e.id = any(${ids}::text[])` : sql<boolean>`e.id in (select value from json_each(${JSON.stringify(ids)}))`;
  const rows = await db
    .selectFrom('entries as e')
    .select(['e.id', 'e.group_id', 'e.technical_name', 'e.base_term', 'e.context_info', 'e.arb_metadata', foldedTranslationsOf(db, shipped).as('translations')])
    .where(wanted)
    .execute();
  return rows.map(exportRow);
}

/** How many versions back a kept read may catch up from the change log; further back, it reads in full. */
export const KEPT_VERSIONS_WINDOW = 256;
/** The most changes a kept read catches up through; beyond (an import), a full read is as quick. */
const CATCH_UP_CHANGES = 10_000;

/**
 * The entries whose texts changed in the versions (after, upTo] of the project, when every one of
 * those versions was such a change, read from the change log (migration 011): each version has its
 * change set, and each change is a translation's or an entry's edit that keeps its name and group.
 * Undefined when any was another kind of write (a create, a delete, a rename, the project's), is not
 * in the log (pruned, or a background step), or there are too many to be worth it: then only a full
 * read is right.
 */
export async function entryChangesSince(db: Db, projectId: string, after: number, upTo: number): Promise<string[] | undefined> {
  const [sets] = (await changeSetCountQuery(db, projectId, after, upTo)).rows;
  if (!sets || Number(sets.sets) !== upTo - after || Number(sets.changes) > CATCH_UP_CHANGES) return undefined;
  const { rows } = await (isPostgres(db) ? textChangesPostgres : textChangesSqlite)(db, projectId, after, upTo);
  const entries: string[] = [];
  for (const row of rows) {
    if (Number(row.texts_only) !== 1 || row.entry_id === null) return undefined;
    entries.push(row.entry_id);
  }
  return entries;
}

const changeSetCountQuery = prepared(3, (_db, projectId: string, after: number, upTo: number) =>
  sql<{ sets: number | string; changes: number | string | null }>`select count(*) as sets, sum(created_count + updated_count + deleted_count) as changes
    from change_sets where project_id = ${projectId} and version > ${after} and version <= ${upTo}`,
);

/** A change that leaves every entry where it was: a translation's, or an entry edit keeping its name and group. */
const textsOnly = (field: (json: RawBuilder<unknown>, name: string) => RawBuilder<unknown>) => sql`case
    when target = 'translation' then 1
    when target = 'entry' and op = 'update'
      and ${field(sql.ref('before_json'), 'technicalName')} = ${field(sql.ref('after_json'), 'technicalName')}
      and ${field(sql.ref('before_json'), 'groupId')} = ${field(sql.ref('after_json'), 'groupId')} then 1
    else 0 end`;

const textChanges = (field: (json: RawBuilder<unknown>, name: string) => RawBuilder<unknown>) =>
  prepared(3, (_db, projectId: string, after: number, upTo: number) =>
    sql<{ entry_id: string | null; texts_only: number | string }>`select entry_id, ${textsOnly(field)} as texts_only
      from changes where project_id = ${projectId} and version > ${after} and version <= ${upTo}
      union all
      select entry_id, ${textsOnly(field)} as texts_only
      from change_sets where project_id = ${projectId} and version > ${after} and version <= ${upTo} and target is not null`,
  );

const textChangesPostgres = textChanges((json, name) => sql`(cast(${json} as json) ->> ${sql.lit(name)})`);
const textChangesSqlite = textChanges((json, name) => sql`json_extract(${json}, ${sql.lit(`$.${name}`)})`);
