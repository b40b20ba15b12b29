/**
 * PostgreSQL's writes (dialect-writes.ts): each a round trip under the project's row lock, which every
 * other write of the project waits for, so each folds its steps into one statement: the start finds
 * the project by the entry or group and bumps it; the read sent with it (bumpAndRead) carries the
 * access check's project, the translation and the group path; the save and the create carry their change record as
 * further arms (bench write-upsert, concurrent-create).
 */
import { sql, type QueryResult } from 'kysely';
import { nameTaken } from '../repositories/groups.js';
import { projectForUserOf, projectForUserSelect, type ProjectForUserRow } from '../repositories/projects.js';
import { prepared } from '../prepared.js';
import type { EntryRow, GroupRow, TranslationRow } from '../schema.js';
import { afterSetRecorded, fieldsForLog, groupPathJson, pathOf } from './change-log.js';
import type { DialectWrites } from './dialect-writes.js';
import { ENTRY_COLUMNS, ENTRY_VALUES, INSERT_LACKING, type EntryArgs } from './entry-rows.js';

export const postgresWrites: DialectWrites = {
  async startEntryWrite(db, entryId, now, userId, language) {
    const [bumped, row] = await bumpAndRead(beginEntryWriteQuery(db, now, entryId), entryForWriteQuery(db, entryId, userId, language));
    if (!bumped || !row) return undefined;
    const { project, translation, group_path, ...entry } = row;
    return {
      version: Number(bumped.content_version),
      entry,
      project: projectForUserOf(project),
      translation: translation ?? undefined,
      groupPath: pathOf(group_path),
    };
  },

  async startGroupWrite(db, groupId, now, userId) {
    const [bumped, row] = await bumpAndRead(beginGroupWriteQuery(db, now, groupId), groupForWriteQuery(db, groupId, userId));
    if (!bumped || !row) return undefined;
    const { project, path, ...group } = row;
    return { version: Number(bumped.content_version), group, project: projectForUserOf(project), path: pathOf(path) };
  },

  async saveTranslation(db, row, record) {
    const { set, change } = record;
    const args = [
      ...[row.id, row.entry_id, row.language, row.translation, row.translator_id, row.created_at, row.updated_at, row.base_revision],
      ...[set.id, set.projectId, set.version, set.source, set.userId, set.apiKeyId],
      ...[change.op, change.groupId ?? null, change.key, fieldsForLog('translation', change.before), fieldsForLog('translation', change.after)],
    ] as SaveArgs;
    const [saved] = (await saveTranslationQuery(db, ...args)).rows;
    if (!saved) throw new Error('the translation upsert returned no row');
    await afterSetRecorded(db, set);
    return saved;
  },

  async insertNewEntry(db, row, languages, record) {
    const { id, project_id, group_id, technical_name, base_term, base_term_key, context_info, arb_metadata, created_at, updated_at } = row;
    const { set, change } = record;
    const [result] = (
      await insertEntryLackingQuery(
        db,
        ...[id, project_id, group_id, technical_name, base_term, base_term_key, context_info, arb_metadata, created_at, updated_at],
        JSON.stringify(languages),
        ...[set.id, set.version, set.source, set.userId, set.apiKeyId, set.createdAt, change.key, fieldsForLog('entry', change.after)!],
      )
    ).rows;
    if (result?.inserted !== true) return false;
    await afterSetRecorded(db, set);
    return true;
  },
};

/**
 * The bump's row and the read's, the read sent right behind the bump (both called before either is
 * awaited): on a bound transaction (postgres/pipelined-driver.ts) both go out at once, and the server
 * runs the read as soon as the bump has the project's lock, in a statement of its own, so it sees
 * every write the lock waited for, and no round trip of the lock's holder lies between them.
 * Elsewhere they run one after the other, in the same order. The read's answer is waited for even
 * when the bump failed, so that its failure (the transaction aborted) is never left unhandled.
 */
async function bumpAndRead<B, R>(bumping: Promise<QueryResult<B>>, reading: Promise<QueryResult<R>>): Promise<[B | undefined, R | undefined]> {
  const [bumped, read] = await Promise.allSettled([bumping, reading]);
  if (bumped.status === 'rejected') throw bumped.reason;
  if (read.status === 'rejected') throw read.reason;
  return [bumped.value.rows[0], read.value.rows[0]];
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

type EntryForWriteRow = EntryRow & { project: ProjectForUserRow; translation: TranslationRow | null; group_path: string[] };

const entryForWriteQuery = prepared(3, (_db, entryId: string, userId: string, language: string | null) =>
  sql<EntryForWriteRow>`select e.*,
      (select row_to_json(target) from (${projectForUserSelect(userId, sql`e.project_id`)}) target) as project,
      (select row_to_json(t) from translations t where t.entry_id = e.id and t.language = ${language}::text) as translation,
      ${groupPathJson(sql`e.group_id`, true)} as group_path
    from entries e where e.id = ${entryId}`,
);

type GroupForWriteRow = GroupRow & { project: ProjectForUserRow; path: string[] };

const groupForWriteQuery = prepared(2, (_db, groupId: string, userId: string) =>
  sql<GroupForWriteRow>`select g.*,
      (select row_to_json(target) from (${projectForUserSelect(userId, sql`g.project_id`)}) target) as project,
      ${groupPathJson(sql`g.id`, true)} as path
    from groups g where g.id = ${groupId}`,
);

type SaveArgs = [
  ...[id: string, entryId: string, language: string, translation: string, translatorId: string, createdAt: string, updatedAt: string, baseRevision: number],
  ...[setId: string, projectId: string, version: number, source: string, userId: string, apiKeyId: string | null],
  ...[op: string, groupId: string | null, key: string | null, before: string, after: string],
];

// The record is one more arm of the save: a set (created at the save's time) holding its one change (migration 014).
const saveTranslationQuery = prepared(19, (_db, ...args: SaveArgs) => {
  const [id, entryId, language, translation, translatorId, createdAt, updatedAt, baseRevision, setId, projectId, version, source, userId, apiKeyId, op, groupId, key, before, after] = args;
  return sql<TranslationRow>`with saved as (
      insert into translations (id, entry_id, language, translation, translator_id, created_at, updated_at, base_revision)
      values (${id}, ${entryId}, ${language}, ${translation}, ${translatorId}, ${createdAt}, ${updatedAt}, cast(${baseRevision} as integer))
      on conflict (entry_id, language) do update
        set translation = excluded.translation, translator_id = excluded.translator_id, updated_at = excluded.updated_at,
          state = 'translated', base_revision = excluded.base_revision
      returning *
    ), translated as (
      delete from missing_translations where entry_id = ${entryId} and language = ${language}
    ), recorded as (
      insert into change_sets (id, project_id, version, source, user_id, api_key_id, created_at, created_count, updated_count, deleted_count, revert_of,
        target, op, group_id, entry_id, language, key, before_json, after_json)
      values (${setId}, ${projectId}, ${version}, ${source}, ${userId}, ${apiKeyId}, ${updatedAt},
        case when ${op} = 'create' then 1 else 0 end, case when ${op} = 'update' then 1 else 0 end, 0, null,
        'translation', ${op}, ${groupId}, ${entryId}, ${language}, ${key}, ${before}, ${after})
    )
    select * from saved`;
});

type EntryRecordArgs = [setId: string, version: number, source: string, userId: string, apiKeyId: string | null, recordedAt: string, key: string | null, after: string];

// The foreign keys of the missing rows are checked at the statement's end, when the entry is there.
const insertEntryLackingQuery = prepared(19, (db, ...args: [...EntryArgs, string, ...EntryRecordArgs]) => {
  const [id, projectId, groupId, technicalName, , , , , createdAt, , languagesJson, setId, version, source, userId, apiKeyId, recordedAt, key, after] = args;
  return sql<{ inserted: boolean }>`with inserted as (
      insert into ${ENTRY_COLUMNS} select ${ENTRY_VALUES(...(args.slice(0, 10) as EntryArgs))}
      where not ${nameTaken(projectId, groupId, technicalName, '')}
      returning id
    ), lacking as (
      ${INSERT_LACKING(db, id, projectId, createdAt, languagesJson)} where exists (select 1 from inserted)
    ), recorded as (
      insert into change_sets (id, project_id, version, source, user_id, api_key_id, created_at, created_count, updated_count, deleted_count, revert_of,
        target, op, group_id, entry_id, language, key, before_json, after_json)
      select ${setId}, ${projectId}, cast(${version} as integer), ${source}, ${userId}, ${apiKeyId}, ${recordedAt}, 1, 0, 0, null,
        'entry', 'create', ${groupId}, ${id}, null, ${key}, null, ${after} where exists (select 1 from inserted)
    )
    select exists (select 1 from inserted) as inserted`;
});
