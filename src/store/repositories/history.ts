/**
 * Reads of the change log (migration 011): a project's change sets and changes, filtered and paged,
 * with their author's names. Driver differences end in the row mappers: a change's id (an integer on
 * SQLite, a bigint pg answers as a string) is a decimal string, before/after are parsed JSON.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { ImportSummary } from '../content-writes/bulk-rows.js';
import { changeCount, changesOfRow, holdsLanguage } from '../content-writes/change-bundles.js';
import { fieldsFromLog } from '../content-writes/change-log.js';
import { heldSetsOf, mappedVersionsOf } from '../content-writes/change-objects.js';
import type { Db } from '../schema.js';

export interface AuthoredRecord {
  userId: string;
  /** null when the user's row is gone */
  firstName: string | null;
  lastName: string | null;
}

export interface ChangeSetRecord extends AuthoredRecord {
  id: string;
  projectId: string;
  version: number;
  source: string;
  apiKeyId: string | null;
  createdAt: string;
  summary: { created: number; updated: number; deleted: number };
  revertOf: string | null;
  /** the latest set reverting this one */
  revertedBy: string | null;
  imported: ImportSummary | null;
}

export interface ChangeRecord extends AuthoredRecord {
  id: string;
  changeSetId: string;
  version: number;
  target: string;
  op: string;
  groupId: string | null;
  entryId: string | null;
  language: string | null;
  key: string | null;
  before: unknown;
  after: unknown;
  source: string;
  createdAt: string;
}

export interface SetFilter {
  limit: number;
  offset: number;
  source?: string | undefined;
  userId?: string | undefined;
  /** only versions after this one, oldest first; else newest first */
  afterVersion?: number | undefined;
  /** sets: those with a translation change in this language; changes: the translation changes in it */
  language?: string | undefined;
}

export interface ChangeFilter extends SetFilter {
  changeSetId?: string | undefined;
  entryId?: string | undefined;
  groupId?: string | undefined;
  target?: string | undefined;
  op?: string | undefined;
}

const orderOf = (filter: SetFilter) => (filter.afterVersion === undefined ? 'desc' : 'asc');

/** The filter names one entry or one group, and besides at most a version to start after, nothing else a set's columns hold. */
const onlyObject = (filter: ChangeFilter) =>
  (filter.entryId === undefined) !== (filter.groupId === undefined) &&
  [filter.changeSetId, filter.target, filter.op, filter.language, filter.source, filter.userId].every((value) => value === undefined);

/** The statements of a page of the project's change sets (by version) and of their count; exported for the plans' test. */
export function changeSetStatements(db: Db, projectId: string, filter: SetFilter) {
  let matching = db.selectFrom('change_sets as cs').where('cs.project_id', '=', projectId);
  if (filter.source !== undefined) matching = matching.where('cs.source', '=', filter.source);
  if (filter.userId !== undefined) matching = matching.where('cs.user_id', '=', filter.userId);
  if (filter.afterVersion !== undefined) matching = matching.where('cs.version', '>', filter.afterVersion);
  const language = filter.language;
  // Probed through each candidate set's own changes (its version's range of changes_project_version):
  // cheap for the many small sets; a large set without the language (an import of another one) is read
  // through once per list.
  // A set holding its one change (migration 014) has the language in its own row.
  if (language !== undefined)
    matching = matching.where((eb) =>
      eb.or([
        eb('cs.language', '=', language),
        eb.exists(
          eb
            .selectFrom('changes as lc')
            .select('lc.id')
            .whereRef('lc.project_id', '=', 'cs.project_id')
            .whereRef('lc.version', '=', 'cs.version')
            .where(holdsLanguage(db, 'lc', language)),
        ),
      ]),
    );
  return {
    page: matching
      .leftJoin('users as u', 'u.id', 'cs.user_id')
      .selectAll('cs')
      .select(['u.first_name', 'u.last_name'])
      .select((eb) =>
        eb.selectFrom('change_sets as r').select('r.id').whereRef('r.revert_of', '=', 'cs.id').orderBy('r.version', 'desc').limit(1).as('reverted_by'),
      )
      .orderBy('cs.version', orderOf(filter))
      .limit(filter.limit)
      .offset(filter.offset),
    count: matching.select((eb) => eb.fn.countAll().as('total')),
  };
}

/** The project's change sets matching the filter: a page of them, and how many there are. */
export async function listChangeSets(db: Db, projectId: string, filter: SetFilter): Promise<{ rows: ChangeSetRecord[]; total: number }> {
  const statements = changeSetStatements(db, projectId, filter);
  const [rows, count] = await Promise.all([statements.page.execute(), statements.count.executeTakeFirstOrThrow()]);
  return {
    total: Number(count.total),
    rows: rows.map((row) => ({
      id: row.id,
      projectId: row.project_id,
      version: Number(row.version),
      source: row.source,
      userId: row.user_id,
      firstName: row.first_name ?? null,
      lastName: row.last_name ?? null,
      apiKeyId: row.api_key_id,
      createdAt: row.created_at,
      summary: { created: Number(row.created_count), updated: Number(row.updated_count), deleted: Number(row.deleted_count) },
      revertOf: row.revert_of,
      revertedBy: row.reverted_by ?? null,
      imported: row.import_summary === null ? null : (JSON.parse(row.import_summary) as ImportSummary),
    })),
  };
}

/**
 * The statements of a page of the project's changes (by version, then id) and of their count. A
 * change is a row of `changes`, one language of a bundle there (an import's translations of one
 * entry: migration 015), or the one change a set holds in its own row (migration 014): each place is
 * one arm, filtered, ordered and cut to the page's end on its own index, and the page is taken from
 * the two arms' rows (pageOfChanges). The narrowest filter names each arm's index (a change set's, an
 * entry's, a group's); the project's own column is then only checked, so that one entry's history
 * never ranges over the whole project's (`checkedOnly`). An entry's or a group's sets holding one change
 * are one union of two halves: those mapped in change_objects and those since (migration 017,
 * change-objects.ts). Exported for the test that reads their plans.
 */
export function changeStatements(db: Db, projectId: string, filter: ChangeFilter) {
  const narrowed = filter.entryId !== undefined || filter.groupId !== undefined;
  const inProject = (column: 'c.project_id') => (narrowed ? checkedOnly(sql.ref(column), projectId) : sql<SqlBool>`${sql.ref(column)} = ${projectId}`);
  const setId = filter.changeSetId;
  const language = filter.language;
  const onChanges = [
    ['entry_id', filter.entryId],
    ['group_id', filter.groupId],
    ['target', filter.target],
    ['op', filter.op],
  ] as const;
  // Rows of `changes`: a bundle has the language among its own.
  let changeRows = db.selectFrom('changes as c').where(inProject('c.project_id'));
  // A set is its project's version: its changes are that version's range of changes_project_version.
  if (setId !== undefined) changeRows = changeRows.where('c.version', '=', (eb) => eb.selectFrom('change_sets as fs').select('fs.version').where('fs.id', '=', setId).where('fs.project_id', '=', projectId));
  for (const [column, value] of onChanges) if (value !== undefined) changeRows = changeRows.where(`c.${column}`, '=', value);
  if (language !== undefined) changeRows = changeRows.where(holdsLanguage(db, 'c', language));
  if (filter.afterVersion !== undefined) changeRows = changeRows.where('c.version', '>', filter.afterVersion);
  // With their set's columns, for the page; the count joins the sets only when it filters by them.
  let rows = changeRows.innerJoin('change_sets as cs', 'cs.id', 'c.change_set_id');
  const bySet = filter.source !== undefined || filter.userId !== undefined;
  // The sets holding their one change: of one entry or group, the mapped ones and those since (change-objects.ts).
  const object = filter.entryId !== undefined ? (['entry_id', filter.entryId] as const) : filter.groupId !== undefined ? (['group_id', filter.groupId] as const) : undefined;
  let held = db.selectFrom('change_sets as cs').where('cs.target', 'is not', null);
  if (object === undefined) held = held.where('cs.project_id', '=', projectId);
  if (setId !== undefined) held = held.where('cs.id', '=', setId);
  for (const [column, value] of onChanges) if (value !== undefined) held = held.where(`cs.${column}`, '=', value);
  if (language !== undefined) held = held.where('cs.language', '=', language);
  if (filter.afterVersion !== undefined) held = held.where('cs.version', '>', filter.afterVersion);
  for (const [column, value] of [['source', filter.source], ['user_id', filter.userId]] as const) {
    if (value === undefined) continue;
    rows = rows.where(`cs.${column}`, '=', value);
    held = held.where(`cs.${column}`, '=', value);
  }
  const order = orderOf(filter);
  const pageEnd = filter.offset + filter.limit;
  const fromRows = rows
    .leftJoin('users as u', 'u.id', 'cs.user_id')
    .select(['c.id as seq', 'c.change_set_id', 'c.version', 'c.target', 'c.op', 'c.group_id', 'c.entry_id', 'c.language', 'c.key', 'c.before_json', 'c.after_json', 'c.bundled'])
    .select(['cs.user_id', 'cs.source', 'cs.created_at', 'u.first_name', 'u.last_name'])
    .orderBy('c.version', order)
    .orderBy('c.id', order)
    .limit(pageEnd);
  // A held change's seq is 0 (a row's id is never): its id is its set's.
  const withColumns = (sets: typeof held) =>
    sets
      .leftJoin('users as u', 'u.id', 'cs.user_id')
      .select([sql<string | number>`0`.as('seq'), 'cs.id as change_set_id', 'cs.version', sql.ref<string>('cs.target').as('target'), sql.ref<string>('cs.op').as('op'), 'cs.group_id', 'cs.entry_id', 'cs.language', 'cs.key', 'cs.before_json', 'cs.after_json', sql<null>`null`.as('bundled')])
      .select(['cs.user_id', 'cs.source', 'cs.created_at', 'u.first_name', 'u.last_name']);
  // With a language, each row matched holds one change in it; else a bundle counts its own.
  const inRows = (bySet ? rows : changeRows).select(language === undefined ? changeCount('c').as('total') : (eb) => eb.fn.countAll().as('total'));
  if (object === undefined) {
    return {
      arms: [fromRows, withColumns(held).orderBy('cs.version', order).limit(pageEnd)] as const,
      counts: [inRows, held.select((eb) => eb.fn.countAll().as('total'))] as const,
    };
  }
  const [mapped, since] = heldSetsOf(projectId, object[0], object[1]);
  // Each half ordered and cut to the page's end on its own, so that PostgreSQL merges the two in order
  // (a large group's first page: ~2 ms) where it would otherwise join and sort all of the group's sets.
  const cut = (half: typeof held) => db.selectFrom(withColumns(half).orderBy('cs.version', order).limit(pageEnd).as('half')).selectAll();
  const versions = (sets: typeof held) => sets.select('cs.version');
  // Counted by the mapping alone where the set's columns filter nothing more (change_objects names only sets holding a change of the object).
  const heldVersions = versions(held.where(since)).unionAll(onlyObject(filter) ? mappedVersionsOf(db, projectId, object[1], filter.afterVersion) : versions(held.where(mapped)));
  return {
    arms: [fromRows, cut(held.where(mapped)).unionAll(cut(held.where(since))).orderBy('version', order).limit(pageEnd)] as const,
    counts: [inRows, db.selectFrom(heldVersions.as('held')).select((eb) => eb.fn.countAll().as('total'))] as const,
  };
}

type ChangeArmRow = Awaited<ReturnType<ReturnType<typeof changeStatements>['arms'][0]['execute']>>[number];

/** The page of changes from the arms' rows: each of a bundle's changes (in `language`, if given) apart, merged in order, cut to the page. */
export async function pageOfChanges(statements: ReturnType<typeof changeStatements>, filter: ChangeFilter): Promise<(ChangeArmRow & { id: string })[]> {
  const [rows, held] = await Promise.all(statements.arms.map((arm) => arm.execute()));
  const changes = [...rows!, ...held!].flatMap((row) => changesOfRow({ ...row, id: String(row.seq) }, filter.language).map((change, part) => ({ change, part })));
  const sign = orderOf(filter) === 'asc' ? 1 : -1;
  changes.sort((a, b) => sign * (Number(a.change.version) - Number(b.change.version) || Number(a.change.seq) - Number(b.change.seq) || a.part - b.part));
  return changes.slice(filter.offset, filter.offset + filter.limit).map(({ change }) => change);
}

/** The project's changes matching the filter: a page of them, and how many there are. */
export async function listChanges(db: Db, projectId: string, filter: ChangeFilter): Promise<{ rows: ChangeRecord[]; total: number }> {
  const statements = changeStatements(db, projectId, filter);
  const [rows, ...counts] = await Promise.all([pageOfChanges(statements, filter), ...statements.counts.map((count) => count.executeTakeFirstOrThrow())]);
  return {
    total: counts.reduce((sum, count) => sum + Number(count.total), 0),
    rows: rows.map((row) => ({
      id: Number(row.seq) === 0 ? row.change_set_id : row.id,
      changeSetId: row.change_set_id,
      version: Number(row.version),
      target: row.target,
      op: row.op,
      groupId: row.group_id,
      entryId: row.entry_id,
      language: row.language,
      key: row.key,
      before: fieldsFromLog(row.target, row.before_json),
      after: fieldsFromLog(row.target, row.after_json),
      source: row.source,
      userId: row.user_id,
      firstName: row.first_name ?? null,
      lastName: row.last_name ?? null,
      createdAt: row.created_at,
    })),
  };
}

/**
 * `column = value` as a check that no index serves: SQLite, without statistics, may otherwise range
 * over the project's changes_project_version instead of the far narrower entry's or group's index.
 */
const checkedOnly = (column: Expression<string>, value: string) => sql<SqlBool>`(${column} || '') = ${value}`;
