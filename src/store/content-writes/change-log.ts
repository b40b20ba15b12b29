/**
 * The change log's rows (migration 011): one change set per content write and its changes, written
 * by the write path inside the write's own transaction, so there is no write without its record and
 * no record without its write. The domain hands over changes in its own words (domain/changes); here
 * they are only rows. A set of one change (most writes) is one row holding it (migration 014); a larger
 * set's changes are rows of `changes`, written with it in one statement on PostgreSQL. The hot saves
 * fold their set into their own statement on PostgreSQL (postgres-writes.ts).
 */
import { sql, type RawBuilder } from 'kysely';
import { isPostgres } from '../dialect.js';
import { prepared } from '../prepared.js';
import type { Db } from '../schema.js';
import { noteRecorded } from './change-feed.js';
import { mapChangeObjectsIfDue } from './change-objects.js';

export interface ChangeSetRecord {
  id: string;
  projectId: string;
  /** the project's content version after the write */
  version: number;
  source: string;
  userId: string;
  apiKeyId: string | null;
  createdAt: string;
  revertOf: string | null;
}

/** A change as the log keeps it: `before`/`after` are stored as JSON. */
export interface ChangeRecord {
  target: 'project' | 'group' | 'entry' | 'translation';
  op: 'create' | 'update' | 'delete';
  groupId?: string | null;
  entryId?: string | null;
  language?: string | null;
  key: string | null;
  before: unknown;
  after: unknown;
}

/** Changes per multi-row insert: 12 values a row stays far below both stores' parameter limits. */
const ROWS_PER_INSERT = 1_000;

/**
 * A change's `before`/`after` as the log stores them: JSON, with a translation's default state
 * (`state: translated`, not outdated) left out; fieldsFromLog puts it back. An import records a
 * million translations, and those 37 bytes each were a sixth of its log (import-large on SQLite).
 */
export function fieldsForLog(target: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (target !== 'translation') return JSON.stringify(value);
  const { state, outdated, ...rest } = value as { state?: unknown; outdated?: unknown };
  return JSON.stringify({ ...rest, ...(state === TRANSLATION_DEFAULTS.state ? {} : { state }), ...(outdated === TRANSLATION_DEFAULTS.outdated ? {} : { outdated }) });
}

/** A change's `before`/`after` read back from the log (fieldsForLog's inverse; rows stored whole read the same). */
export function fieldsFromLog(target: string, json: string | null): Record<string, unknown> | null {
  if (json === null) return null;
  const fields = JSON.parse(json) as Record<string, unknown>;
  return target === 'translation' ? { text: fields.text, ...TRANSLATION_DEFAULTS, ...fields } : fields;
}

const TRANSLATION_DEFAULTS = { state: 'translated', outdated: false } as const;

/** The set's summary: its changes counted by op. */
export function summaryOf(changes: readonly ChangeRecord[]): { created: number; updated: number; deleted: number } {
  const summary = { created: 0, updated: 0, deleted: 0 };
  for (const change of changes) summary[`${change.op}d` as 'created' | 'updated' | 'deleted'] += 1;
  return summary;
}

const SET_COLUMNS = sql`change_sets (id, project_id, version, source, user_id, api_key_id, created_at, created_count, updated_count, deleted_count, revert_of)`;
const CHANGE_COLUMNS = sql`changes (change_set_id, project_id, version, target, op, group_id, entry_id, language, key, before_json, after_json)`;

const setValues = (set: ChangeSetRecord, changes: readonly ChangeRecord[]) => {
  const { created, updated, deleted } = summaryOf(changes);
  return sql`(${set.id}, ${set.projectId}, ${set.version}, ${set.source}, ${set.userId}, ${set.apiKeyId}, ${set.createdAt}, ${created}, ${updated}, ${deleted}, ${set.revertOf})`;
};

const changeValues = (set: ChangeSetRecord, change: ChangeRecord) =>
  sql`(${set.id}, ${set.projectId}, ${set.version}, ${change.target}, ${change.op}, ${change.groupId ?? null}, ${change.entryId ?? null}, ${change.language ?? null}, ${change.key}, ${fieldsForLog(change.target, change.before)}, ${fieldsForLog(change.target, change.after)})`;

/** The insert of a set (as a statement, or a PostgreSQL CTE arm). */
export const insertSet = (set: ChangeSetRecord, changes: readonly ChangeRecord[]): RawBuilder<unknown> => sql`insert into ${SET_COLUMNS} values ${setValues(set, changes)}`;

/** The insert of some of a set's changes (as a statement, or a PostgreSQL CTE arm). */
export const insertChanges = (set: ChangeSetRecord, changes: readonly ChangeRecord[]): RawBuilder<unknown> =>
  sql`insert into ${CHANGE_COLUMNS} values ${sql.join(changes.map((change) => changeValues(set, change)))}`;

type SetArgs = [id: string, projectId: string, version: number, source: string, userId: string, apiKeyId: string | null, createdAt: string, created: number, updated: number, deleted: number, revertOf: string | null];
type ChangeArgs = [target: string, op: string, groupId: string | null, entryId: string | null, language: string | null, key: string | null, before: string | null, after: string | null];

const INLINE_SET_COLUMNS = sql`change_sets (id, project_id, version, source, user_id, api_key_id, created_at, created_count, updated_count, deleted_count, revert_of,
  target, op, group_id, entry_id, language, key, before_json, after_json)`;

// Most writes record one change: a set holding it (migration 014), one statement compiled once (prepared.ts).
const insertInlineSetQuery = prepared(19, (_db, ...[id, projectId, version, source, userId, apiKeyId, createdAt, created, updated, deleted, revertOf, ...change]: [...SetArgs, ...ChangeArgs]) => {
  const [target, op, groupId, entryId, language, key, before, after] = change;
  return sql`insert into ${INLINE_SET_COLUMNS} values (${id}, ${projectId}, ${version}, ${source}, ${userId}, ${apiKeyId}, ${createdAt}, ${created}, ${updated}, ${deleted}, ${revertOf},
    ${target}, ${op}, ${groupId}, ${entryId}, ${language}, ${key}, ${before}, ${after})`;
});

/** A change's columns as the log stores them (a set's own, or a row of `changes`). */
const changeArgs = (change: ChangeRecord): ChangeArgs => [
  change.target,
  change.op,
  change.groupId ?? null,
  change.entryId ?? null,
  change.language ?? null,
  change.key,
  fieldsForLog(change.target, change.before),
  fieldsForLog(change.target, change.after),
];

/** Records a write's change set and its changes (none: nothing is recorded); a set of one holds it in its own row. */
export async function recordChangeSet(db: Db, set: ChangeSetRecord, changes: readonly ChangeRecord[]): Promise<void> {
  if (changes.length === 0) return;
  if (changes.length === 1) {
    const { created, updated, deleted } = summaryOf(changes);
    await insertInlineSetQuery(db, set.id, set.projectId, set.version, set.source, set.userId, set.apiKeyId, set.createdAt, created, updated, deleted, set.revertOf, ...changeArgs(changes[0]!));
  } else {
    await insertSetAndChanges(db, set, changes);
  }
  await afterSetRecorded(db, set);
}

/**
 * What follows every write of a change set, wherever it is written (here, an import's bulk insert, the
 * folded PostgreSQL statements): the set is announced after the commit (change-feed.ts), and the project's
 * sets are mapped by object when its version is due (change-objects.ts).
 */
export async function afterSetRecorded(db: Db, set: ChangeSetRecord): Promise<void> {
  noteRecorded(db, set);
  await mapChangeObjectsIfDue(db, set.projectId, set.version);
}

/** A set of several changes: its row, and its changes' rows of `changes`. */
async function insertSetAndChanges(db: Db, set: ChangeSetRecord, changes: readonly ChangeRecord[]): Promise<void> {
  const first = changes.slice(0, ROWS_PER_INSERT);
  if (isPostgres(db)) {
    // The set and its first changes in one round trip (the foreign key is checked at the statement's end).
    await sql`with recorded_set as (${insertSet(set, changes)}) ${insertChanges(set, first)}`.execute(db);
  } else {
    await insertSet(set, changes).execute(db);
    await insertChanges(set, first).execute(db);
  }
  for (let start = ROWS_PER_INSERT; start < changes.length; start += ROWS_PER_INSERT) {
    await insertChanges(set, changes.slice(start, start + ROWS_PER_INSERT)).execute(db);
  }
}

/**
 * The group's path as a JSON array of technical names, from the top-level group down to the group
 * itself (SQL, so a write's own read can carry it): the key of its entries and of the group.
 */
export const groupPathJson = (groupId: RawBuilder<unknown> | string, postgres: boolean): RawBuilder<string | string[]> => sql`(
  with recursive chain(id, parent_id, name, level) as (
    select id, parent_id, technical_name, 0 from groups where id = ${groupId}
    union all
    select g.id, g.parent_id, g.technical_name, chain.level + 1 from groups g join chain on g.id = chain.parent_id
  )
  ${postgres ? sql`select coalesce(json_agg(name order by level desc), '[]'::json) from chain` : sql`select json_group_array(name) from (select name from chain order by level desc)`}
)`;

/** groupPathJson's value read back (PostgreSQL answers JSON parsed, SQLite as text). */
export const pathOf = (value: string | string[] | null | undefined): string[] => (value == null ? [] : typeof value === 'string' ? (JSON.parse(value) as string[]) : value);

/** The group's path (see groupPathJson); [] when it is gone. */
export async function groupPath(db: Db, groupId: string): Promise<string[]> {
  const { rows } = await groupPathQuery(db, groupId);
  return pathOf(rows[0]?.path);
}

// Every entry write on the embedded store reads it (PostgreSQL folds it into the entry's read).
const groupPathQuery = prepared(1, (db, groupId: string) => sql<{ path: string | string[] }>`select ${groupPathJson(groupId, isPostgres(db))} as path`);
