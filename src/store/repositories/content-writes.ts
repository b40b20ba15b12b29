/**
 * How a write to one entry or group starts, and a translation save. On PostgreSQL each statement is a
 * round trip, and the project's row lock (beginProjectWrite) is held from the first of them to the
 * commit, so every write of a project waits for all of them: folded, a translation save makes 3
 * statements under the lock instead of 6, and a start 2 instead of 4 (bench write-upsert,
 * concurrent-create). On SQLite a statement costs no trip, and the same steps run as the plain
 * statements they are made of.
 */
import { sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import { prepared } from '../prepared.js';
import type { Db, EntryRow, GroupRow, TranslationRow } from '../schema.js';
import { findEntry, findTranslation, upsertTranslation } from './entries.js';
import { findGroup, nameTaken, nameTakenUnderParent } from './groups.js';
import { findProjectWithPlace } from './members.js';
import { noteRecorded } from '../content-writes/change-feed.js';
import { groupPath, groupPathJson, insertChanges, insertSet, pathOf, recordChangeSet, type ChangeRecord, type ChangeSetRecord } from '../content-writes/change-log.js';
import { markTranslated } from './missing-translations.js';
import {
  beginProjectWrite,
  projectForUserOf,
  projectForUserSelect,
  type ProjectForUser,
  type ProjectForUserRow,
} from './projects.js';

/** beginProjectWrite for the project of `entryId`, found in the same statement on PostgreSQL: the new content version, undefined when the entry or its project is gone. */
export async function beginEntryProjectWrite(db: Db, entryId: string, now: string): Promise<number | undefined> {
  if (isPostgres(db)) {
    const [bumped] = (await beginEntryWriteQuery(db, now, entryId)).rows;
    return bumped && Number(bumped.content_version);
  }
  const entry = await findEntry(db, entryId);
  return entry && (await beginProjectWrite(db, entry.project_id, now));
}

/** beginProjectWrite for the project of `groupId`, found in the same statement on PostgreSQL: the new content version, undefined when the group or its project is gone. */
export async function beginGroupProjectWrite(db: Db, groupId: string, now: string): Promise<number | undefined> {
  if (isPostgres(db)) {
    const [bumped] = (await beginGroupWriteQuery(db, now, groupId)).rows;
    return bumped && Number(bumped.content_version);
  }
  const group = await findGroup(db, groupId);
  return group && (await beginProjectWrite(db, group.project_id, now));
}

// Entries and groups never change project: the project read from the statement's snapshot is theirs.
const BUMP_BY = (table: 'entries' | 'groups', now: string, id: string) => sql`bumped as (
  update projects set content_version = content_version + 1, updated_at = ${now}
  where id = (select project_id from ${sql.table(table)} where id = ${id}) returning id, content_version
)`;

const beginEntryWriteQuery = prepared(2, (_db, now: string, entryId: string) =>
  sql<{ content_version: number }>`with ${BUMP_BY('entries', now, entryId)} select content_version from bumped`,
);

const beginGroupWriteQuery = prepared(2, (_db, now: string, groupId: string) =>
  sql<{ content_version: number }>`with ${BUMP_BY('groups', now, groupId)} select content_version from bumped`,
);

/** What a write to an entry checks, read after beginEntryProjectWrite (a statement of its own: it must see what the lock waited for). */
export interface EntryForWrite {
  entry: EntryRow;
  /** the entry's project as the user sees it (the access check's read) */
  project: ProjectForUser;
  /** the entry's translation in the language asked for, if any */
  translation: TranslationRow | undefined;
  /** the technical names of the entry's group and its ancestors, from the top (its changes' key) */
  groupPath: string[];
}

/** The entry, its project as `userId` sees it and (with `language`) its translation in that language; undefined when the entry is gone. */
export async function findEntryForWrite(db: Db, entryId: string, userId: string, language: string | null): Promise<EntryForWrite | undefined> {
  if (isPostgres(db)) {
    const [row] = (await entryForWriteQuery(db, entryId, userId, language)).rows;
    if (!row) return undefined;
    const { project, translation, group_path, ...entry } = row;
    return { entry, project: projectForUserOf(project), translation: translation ?? undefined, groupPath: pathOf(group_path) };
  }
  const entry = await findEntry(db, entryId);
  const project = entry && (await findProjectWithPlace(db, entry.project_id, userId));
  if (!project) return undefined;
  const translation = language === null ? undefined : await findTranslation(db, entryId, language);
  return { entry: entry!, project, translation, groupPath: await groupPath(db, entry!.group_id) };
}

type EntryForWriteRow = EntryRow & { project: ProjectForUserRow; translation: TranslationRow | null; group_path: string[] };

const entryForWriteQuery = prepared(3, (_db, entryId: string, userId: string, language: string | null) =>
  sql<EntryForWriteRow>`select e.*,
      (select row_to_json(target) from (${projectForUserSelect(userId, sql`e.project_id`)}) target) as project,
      (select row_to_json(t) from translations t where t.entry_id = e.id and t.language = ${language}::text) as translation,
      ${groupPathJson(sql`e.group_id`, true)} as group_path
    from entries e where e.id = ${entryId}`,
);

/** What a write to a group checks, read after beginGroupProjectWrite. */
export interface GroupForWrite {
  group: GroupRow;
  /** the group's project as the user sees it (the access check's read) */
  project: ProjectForUser;
  /** the technical names of the group's ancestors and its own, from the top (its changes' key) */
  path: string[];
}

/** The group and its project as `userId` sees it; undefined when the group or its project is gone. */
export async function findGroupForWrite(db: Db, groupId: string, userId: string): Promise<GroupForWrite | undefined> {
  if (isPostgres(db)) {
    const [row] = (await groupForWriteQuery(db, groupId, userId)).rows;
    if (!row) return undefined;
    const { project, path, ...group } = row;
    return { group, project: projectForUserOf(project), path: pathOf(path) };
  }
  const group = await findGroup(db, groupId);
  const project = group && (await findProjectWithPlace(db, group.project_id, userId));
  return project && { group: group!, project, path: await groupPath(db, groupId) };
}

const groupForWriteQuery = prepared(2, (_db, groupId: string, userId: string) =>
  sql<GroupRow & { project: ProjectForUserRow; path: string[] }>`select g.*,
      (select row_to_json(target) from (${projectForUserSelect(userId, sql`g.project_id`)}) target) as project,
      ${groupPathJson(sql`g.id`, true)} as path
    from groups g where g.id = ${groupId}`,
);

/** A write's change set with its one change (the hot writes fold their record into their own statement). */
export interface OneChangeRecord {
  set: ChangeSetRecord;
  change: ChangeRecord;
}

/**
 * Inserts or replaces the (entry, language) translation, marks the pair translated (a no-op when it
 * was already) and records the change; returns the stored row. One statement on PostgreSQL.
 */
export async function saveTranslation(db: Db, row: TranslationRow, record: OneChangeRecord): Promise<TranslationRow> {
  if (!isPostgres(db)) {
    const saved = await upsertTranslation(db, row);
    await markTranslated(db, row.entry_id, row.language);
    await recordChangeSet(db, record.set, [record.change]);
    return saved;
  }
  const { set, change } = record;
  const args = [
    ...[row.id, row.entry_id, row.language, row.translation, row.translator_id, row.created_at, row.updated_at],
    ...[set.id, set.projectId, set.version, set.source, set.userId, set.apiKeyId],
    ...[change.op, change.groupId ?? null, change.key, JSON.stringify(change.before), JSON.stringify(change.after)],
  ] as SaveArgs;
  const [saved] = (await saveTranslationQuery(db, ...args)).rows;
  if (!saved) throw new Error('the translation upsert returned no row');
  noteRecorded(db, set);
  return saved;
}

type SaveArgs = [
  ...[id: string, entryId: string, language: string, translation: string, translatorId: string, createdAt: string, updatedAt: string],
  ...[setId: string, projectId: string, version: number, source: string, userId: string, apiKeyId: string | null],
  ...[op: string, groupId: string | null, key: string | null, before: string, after: string],
];

// The record is two more arms of the save: a set (created at the save's time) with its one change.
const saveTranslationQuery = prepared(18, (_db, ...args: SaveArgs) => {
  const [id, entryId, language, translation, translatorId, createdAt, updatedAt, setId, projectId, version, source, userId, apiKeyId, op, groupId, key, before, after] = args;
  return sql<TranslationRow>`with saved as (
      insert into translations (id, entry_id, language, translation, translator_id, created_at, updated_at)
      values (${id}, ${entryId}, ${language}, ${translation}, ${translatorId}, ${createdAt}, ${updatedAt})
      on conflict (entry_id, language) do update
        set translation = excluded.translation, translator_id = excluded.translator_id, updated_at = excluded.updated_at
      returning *
    ), translated as (
      delete from missing_translations where entry_id = ${entryId} and language = ${language}
    ), recorded_set as (
      insert into change_sets (id, project_id, version, source, user_id, api_key_id, created_at, created_count, updated_count, deleted_count, revert_of)
      values (${setId}, ${projectId}, ${version}, ${source}, ${userId}, ${apiKeyId}, ${updatedAt},
        case when ${op} = 'create' then 1 else 0 end, case when ${op} = 'update' then 1 else 0 end, 0, null)
    ), recorded as (
      insert into changes (change_set_id, project_id, version, target, op, group_id, entry_id, language, key, before_json, after_json)
      values (${setId}, ${projectId}, ${version}, 'translation', ${op}, ${groupId}, ${entryId}, ${language}, ${key}, ${before}, ${after})
    )
    select * from saved`;
});

/**
 * Inserts a new entry, unless its technical name is taken in its group's name space
 * (nameTakenUnderParent), and marks it untranslated in each of `languages` (missing-translations.ts).
 * False when the name was taken (nothing written). One statement on PostgreSQL, where it runs under
 * the project's lock: the check was a round trip of its own there, which every other write of the
 * project waited for. A unique or foreign-key violation is thrown as the database reports it (the
 * caller turns it into 409 or 404).
 */
export async function insertNewEntry(db: Db, row: EntryRow, languages: readonly string[], record: OneChangeRecord): Promise<boolean> {
  const { id, project_id, group_id, technical_name, base_term, base_term_key, context_info, arb_metadata, created_at, updated_at } = row;
  const entryArgs = [id, project_id, group_id, technical_name, base_term, base_term_key, context_info, arb_metadata, created_at, updated_at] as const;
  const languagesJson = JSON.stringify(languages);
  if (isPostgres(db)) {
    const { set, change } = record;
    const recordArgs = [set.id, set.version, set.source, set.userId, set.apiKeyId, set.createdAt, change.key, JSON.stringify(change.after)] as const;
    const [result] = (await insertEntryLackingQuery(db, ...entryArgs, languagesJson, ...recordArgs)).rows;
    if (result?.inserted === true) noteRecorded(db, set);
    return result?.inserted === true;
  }
  if (await nameTakenUnderParent(db, project_id, group_id, technical_name)) return false;
  await insertEntryQuery(db, ...entryArgs);
  if (languages.length > 0) await insertLackingQuery(db, id, project_id, created_at, languagesJson);
  await recordChangeSet(db, record.set, [record.change]);
  return true;
}

type EntryArgs = [string, string, string, string, string, string, string | null, string | null, string, string];

const ENTRY_COLUMNS = sql`entries (id, project_id, group_id, technical_name, base_term, base_term_key, context_info, arb_metadata, created_at, updated_at)`;

const ENTRY_VALUES = (...[id, projectId, groupId, technicalName, baseTerm, baseTermKey, contextInfo, arbMetadata, createdAt, updatedAt]: EntryArgs) =>
  sql`${id}, ${projectId}, ${groupId}, ${technicalName}, ${baseTerm}, ${baseTermKey}, ${contextInfo}, ${arbMetadata}, ${createdAt}, ${updatedAt}`;

/** One missing-translation row per language of the JSON array `languagesJson`. */
const INSERT_LACKING = (db: Db, entryId: string, projectId: string, createdAt: string, languagesJson: string) => sql`
  insert into missing_translations (entry_id, language, project_id, created_at)
  select ${entryId}, value, ${projectId}, ${createdAt}
  from ${isPostgres(db) ? sql`json_array_elements_text(cast(${languagesJson} as json))` : sql`json_each(${languagesJson})`}`;

const insertEntryQuery = prepared(10, (_db, ...args: EntryArgs) => sql`insert into ${ENTRY_COLUMNS} values (${ENTRY_VALUES(...args)})`);

const insertLackingQuery = prepared(4, (db, entryId: string, projectId: string, createdAt: string, languagesJson: string) =>
  INSERT_LACKING(db, entryId, projectId, createdAt, languagesJson),
);

type EntryRecordArgs = [setId: string, version: number, source: string, userId: string, apiKeyId: string | null, recordedAt: string, key: string | null, after: string];

// The foreign keys of the missing rows and of the change are checked at the statement's end, when the entry and the set are there.
const insertEntryLackingQuery = prepared(19, (db, ...args: [...EntryArgs, string, ...EntryRecordArgs]) => {
  const [id, projectId, groupId, technicalName, , , , , createdAt, , languagesJson, setId, version, source, userId, apiKeyId, recordedAt, key, after] = args;
  return sql<{ inserted: boolean }>`with inserted as (
      insert into ${ENTRY_COLUMNS} select ${ENTRY_VALUES(...(args.slice(0, 10) as EntryArgs))}
      where not ${nameTaken(projectId, groupId, technicalName, '')}
      returning id
    ), lacking as (
      ${INSERT_LACKING(db, id, projectId, createdAt, languagesJson)} where exists (select 1 from inserted)
    ), recorded_set as (
      insert into change_sets (id, project_id, version, source, user_id, api_key_id, created_at, created_count, updated_count, deleted_count, revert_of)
      select ${setId}, ${projectId}, cast(${version} as integer), ${source}, ${userId}, ${apiKeyId}, ${recordedAt}, 1, 0, 0, null where exists (select 1 from inserted)
    ), recorded as (
      insert into changes (change_set_id, project_id, version, target, op, group_id, entry_id, language, key, before_json, after_json)
      select ${setId}, ${projectId}, cast(${version} as integer), 'entry', 'create', ${groupId}, ${id}, null, ${key}, null, ${after} where exists (select 1 from inserted)
    )
    select exists (select 1 from inserted) as inserted`;
});
