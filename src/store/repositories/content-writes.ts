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
import { markTranslated } from './missing-translations.js';
import {
  beginProjectWrite,
  ENTRY_CHANGES_KEPT,
  FORGET_EVERY,
  projectForUserOf,
  projectForUserSelect,
  type ProjectForUser,
  type ProjectForUserRow,
} from './projects.js';

/**
 * beginProjectWrite for the project of `entryId`, found in the same statement on PostgreSQL.
 * `textsOnly`: the write changes only this entry's texts (logged for exports, see beginProjectWrite).
 * False when the entry or its project is gone.
 */
export async function beginEntryProjectWrite(db: Db, entryId: string, now: string, textsOnly: boolean): Promise<boolean> {
  if (isPostgres(db)) {
    const { rows } = await (textsOnly ? beginEntryTextsWriteQuery : beginEntryPlaceWriteQuery)(db, now, entryId);
    return rows.length > 0;
  }
  const entry = await findEntry(db, entryId);
  return entry !== undefined && (await beginProjectWrite(db, entry.project_id, now, textsOnly ? entryId : undefined));
}

/** beginProjectWrite for the project of `groupId`, found in the same statement on PostgreSQL; false when the group or its project is gone. */
export async function beginGroupProjectWrite(db: Db, groupId: string, now: string): Promise<boolean> {
  if (isPostgres(db)) return (await beginGroupWriteQuery(db, now, groupId)).rows.length > 0;
  const group = await findGroup(db, groupId);
  return group !== undefined && (await beginProjectWrite(db, group.project_id, now));
}

// Entries and groups never change project: the project read from the statement's snapshot is theirs.
const BUMP_BY = (table: 'entries' | 'groups', now: string, id: string) => sql`bumped as (
  update projects set content_version = content_version + 1, updated_at = ${now}
  where id = (select project_id from ${sql.table(table)} where id = ${id}) returning id, content_version
)`;

const beginEntryPlaceWriteQuery = prepared(2, (_db, now: string, entryId: string) =>
  sql<{ id: string }>`with ${BUMP_BY('entries', now, entryId)} select id from bumped`,
);

const beginGroupWriteQuery = prepared(2, (_db, now: string, groupId: string) =>
  sql<{ id: string }>`with ${BUMP_BY('groups', now, groupId)} select id from bumped`,
);

const beginEntryTextsWriteQuery = prepared(2, (_db, now: string, entryId: string) =>
  sql<{ id: string }>`with ${BUMP_BY('entries', now, entryId)}, forgotten as (
      delete from entry_changes where project_id = (select id from bumped)
        and version <= (select content_version - ${ENTRY_CHANGES_KEPT} from bumped where content_version % ${FORGET_EVERY} = 0)
    ), logged as (
      insert into entry_changes (project_id, version, entry_id) select id, content_version, ${entryId} from bumped
    )
    select id from bumped`,
);

/** What a write to an entry checks, read after beginEntryProjectWrite (a statement of its own: it must see what the lock waited for). */
export interface EntryForWrite {
  entry: EntryRow;
  /** the entry's project as the user sees it (the access check's read) */
  project: ProjectForUser;
  /** the entry's translation in the language asked for, if any */
  translation: TranslationRow | undefined;
}

/** The entry, its project as `userId` sees it and (with `language`) its translation in that language; undefined when the entry is gone. */
export async function findEntryForWrite(db: Db, entryId: string, userId: string, language: string | null): Promise<EntryForWrite | undefined> {
  if (isPostgres(db)) {
    const [row] = (await entryForWriteQuery(db, entryId, userId, language)).rows;
    if (!row) return undefined;
    const { project, translation, ...entry } = row;
    return { entry, project: projectForUserOf(project), translation: translation ?? undefined };
  }
  const entry = await findEntry(db, entryId);
  const project = entry && (await findProjectWithPlace(db, entry.project_id, userId));
  if (!project) return undefined;
  const translation = language === null ? undefined : await findTranslation(db, entryId, language);
  return { entry: entry!, project, translation };
}

type EntryForWriteRow = EntryRow & { project: ProjectForUserRow; translation: TranslationRow | null };

const entryForWriteQuery = prepared(3, (_db, entryId: string, userId: string, language: string | null) =>
  sql<EntryForWriteRow>`select e.*,
      (select row_to_json(target) from (${projectForUserSelect(userId, sql`e.project_id`)}) target) as project,
      (select row_to_json(t) from translations t where t.entry_id = e.id and t.language = ${language}::text) as translation
    from entries e where e.id = ${entryId}`,
);

/** What a write to a group checks, read after beginGroupProjectWrite. */
export interface GroupForWrite {
  group: GroupRow;
  /** the group's project as the user sees it (the access check's read) */
  project: ProjectForUser;
}

/** The group and its project as `userId` sees it; undefined when the group or its project is gone. */
export async function findGroupForWrite(db: Db, groupId: string, userId: string): Promise<GroupForWrite | undefined> {
  if (isPostgres(db)) {
    const [row] = (await groupForWriteQuery(db, groupId, userId)).rows;
    if (!row) return undefined;
    const { project, ...group } = row;
    return { group, project: projectForUserOf(project) };
  }
  const group = await findGroup(db, groupId);
  const project = group && (await findProjectWithPlace(db, group.project_id, userId));
  return project && { group: group!, project };
}

const groupForWriteQuery = prepared(2, (_db, groupId: string, userId: string) =>
  sql<GroupRow & { project: ProjectForUserRow }>`select g.*,
      (select row_to_json(target) from (${projectForUserSelect(userId, sql`g.project_id`)}) target) as project
    from groups g where g.id = ${groupId}`,
);

/**
 * Inserts or replaces the (entry, language) translation and marks the pair translated (a no-op when
 * it was already); returns the stored row. One statement on PostgreSQL.
 */
export async function saveTranslation(db: Db, row: TranslationRow): Promise<TranslationRow> {
  if (!isPostgres(db)) {
    const saved = await upsertTranslation(db, row);
    await markTranslated(db, row.entry_id, row.language);
    return saved;
  }
  const [saved] = (await saveTranslationQuery(db, row.id, row.entry_id, row.language, row.translation, row.translator_id, row.created_at, row.updated_at)).rows;
  if (!saved) throw new Error('the translation upsert returned no row');
  return saved;
}

const saveTranslationQuery = prepared(
  7,
  (_db, id: string, entryId: string, language: string, translation: string, translatorId: string, createdAt: string, updatedAt: string) =>
    sql<TranslationRow>`with saved as (
        insert into translations (id, entry_id, language, translation, translator_id, created_at, updated_at)
        values (${id}, ${entryId}, ${language}, ${translation}, ${translatorId}, ${createdAt}, ${updatedAt})
        on conflict (entry_id, language) do update
          set translation = excluded.translation, translator_id = excluded.translator_id, updated_at = excluded.updated_at
        returning *
      ), translated as (
        delete from missing_translations where entry_id = ${entryId} and language = ${language}
      )
      select * from saved`,
);

/**
 * Inserts a new entry, unless its technical name is taken in its group's name space
 * (nameTakenUnderParent), and marks it untranslated in each of `languages` (missing-translations.ts).
 * False when the name was taken (nothing written). One statement on PostgreSQL, where it runs under
 * the project's lock: the check was a round trip of its own there, which every other write of the
 * project waited for. A unique or foreign-key violation is thrown as the database reports it (the
 * caller turns it into 409 or 404).
 */
export async function insertNewEntry(db: Db, row: EntryRow, languages: readonly string[]): Promise<boolean> {
  const { id, project_id, group_id, technical_name, base_term, base_term_key, context_info, arb_metadata, created_at, updated_at } = row;
  const entryArgs = [id, project_id, group_id, technical_name, base_term, base_term_key, context_info, arb_metadata, created_at, updated_at] as const;
  const languagesJson = JSON.stringify(languages);
  if (isPostgres(db)) {
    const [result] = (await insertEntryLackingQuery(db, ...entryArgs, languagesJson)).rows;
    return result?.inserted === true;
  }
  if (await nameTakenUnderParent(db, project_id, group_id, technical_name)) return false;
  await insertEntryQuery(db, ...entryArgs);
  if (languages.length > 0) await insertLackingQuery(db, id, project_id, created_at, languagesJson);
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

// The foreign key of the missing rows is checked at the statement's end, when the entry is there.
const insertEntryLackingQuery = prepared(11, (db, ...args: [...EntryArgs, string]) => {
  const [id, projectId, groupId, technicalName, , , , , createdAt, , languagesJson] = args;
  return sql<{ inserted: boolean }>`with inserted as (
      insert into ${ENTRY_COLUMNS} select ${ENTRY_VALUES(...(args.slice(0, 10) as EntryArgs))}
      where not ${nameTaken(projectId, groupId, technicalName, '')}
      returning id
    ), lacking as (
      ${INSERT_LACKING(db, id, projectId, createdAt, languagesJson)} where exists (select 1 from inserted)
    )
    select exists (select 1 from inserted) as inserted`;
});
