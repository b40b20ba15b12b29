/**
 * The embedded store's writes (dialect-writes.ts): plain statements, one after another. A statement
 * costs no round trip here, but each is ~20–30 µs of the driver's time in a write of ~300: the start
 * finds the project and bumps it in one statement, and one more reads what the write checks: the entry
 * or group with its path, its project as the user sees it and the translation the write asks for.
 */
import { sql } from 'kysely';
import { nameTakenUnderParent } from '../repositories/groups.js';
import { projectForUserJson, projectForUserOf, type ProjectForUser, type ProjectForUserRow } from '../repositories/projects.js';
import { markTranslated } from '../repositories/missing-translations.js';
import { prepared } from '../prepared.js';
import type { EntryRow, GroupRow, TranslationRow } from '../schema.js';
import { groupPathJson, pathOf, recordChangeSet } from './change-log.js';
import type { DialectWrites } from './dialect-writes.js';
import { insertEntryQuery, insertLackingQuery } from './entry-rows.js';
import { upsertTranslation } from './translation-rows.js';

export const sqliteWrites: DialectWrites = {
  async startEntryWrite(db, entryId, now, userId, language) {
    const [bumped] = (await bumpByEntryQuery(db, now, entryId)).rows;
    if (!bumped) return undefined;
    const [row] = (await entryForWriteQuery(db, entryId, userId, language)).rows;
    if (!row || row.project === null) return undefined;
    const { project, translation, group_path, ...entry } = row;
    return { version: Number(bumped.content_version), entry, project: projectOf(project), translation: translationOf(translation), groupPath: pathOf(group_path) };
  },

  async startGroupWrite(db, groupId, now, userId) {
    const [bumped] = (await bumpByGroupQuery(db, now, groupId)).rows;
    if (!bumped) return undefined;
    const [row] = (await groupForWriteQuery(db, groupId, userId)).rows;
    if (!row || row.project === null) return undefined;
    const { project, path, ...group } = row;
    return { version: Number(bumped.content_version), group, project: projectOf(project), path: pathOf(path) };
  },

  async saveTranslation(db, row, record) {
    const saved = await upsertTranslation(db, row);
    // A translation that was there already had no missing row: its create deleted it, under the one writer
    // (tolk doctor checks it). PostgreSQL deletes it in every save, an arm of the save's own statement.
    if (record.change.op === 'create') await markTranslated(db, row.entry_id, row.language);
    await recordChangeSet(db, record.set, [record.change]);
    return saved;
  },

  async insertNewEntry(db, row, languages, record) {
    const { id, project_id, group_id, technical_name, base_term, base_term_key, context_info, arb_metadata, created_at, updated_at } = row;
    if (await nameTakenUnderParent(db, project_id, group_id, technical_name)) return false;
    await insertEntryQuery(db, id, project_id, group_id, technical_name, base_term, base_term_key, context_info, arb_metadata, created_at, updated_at);
    if (languages.length > 0) await insertLackingQuery(db, id, project_id, created_at, JSON.stringify(languages));
    await recordChangeSet(db, record.set, [record.change]);
    return true;
  },
};

// Entries and groups never change project: the one they name is theirs.
const bumpBy = (table: 'entries' | 'groups') =>
  prepared(2, (_db, now: string, id: string) =>
    sql<{ content_version: number }>`update projects set content_version = content_version + 1, updated_at = ${now}
      where id = (select project_id from ${sql.table(table)} where id = ${id}) returning content_version`,
  );
const bumpByEntryQuery = bumpBy('entries');
const bumpByGroupQuery = bumpBy('groups');

const TRANSLATION_COLUMNS = [
  'id', 'entry_id', 'language', 'translation', 'translator_id', 'created_at', 'updated_at',
  'state', 'base_revision', 'reviewed_text', 'reviewed_by', 'reviewed_at', 'reviewed_revision',
] as const satisfies readonly (keyof TranslationRow)[];

// What a write checks, in one statement as on PostgreSQL (postgres-writes.ts): the entry with its group
// path, its project as the user sees it (the access check's read) and, with a language, its translation,
// each of the last two as a JSON text. Four statements were ~5 µs each of a save's own besides their work.
const entryForWriteQuery = prepared(3, (_db, entryId: string, userId: string, language: string | null) => {
  const translationJson = sql.join(TRANSLATION_COLUMNS.map((column) => sql`${sql.lit(column)}, t.${sql.ref(column)}`));
  return sql<EntryRow & { project: string | null; translation: string | null; group_path: string }>`select e.*,
      ${projectForUserJson(userId, sql`e.project_id`)} as project,
      (select json_object(${translationJson}) from translations t where t.entry_id = e.id and t.language = ${language}) as translation,
      ${groupPathJson(sql`e.group_id`, false)} as group_path
    from entries e where e.id = ${entryId}`;
});

const groupForWriteQuery = prepared(2, (_db, groupId: string, userId: string) =>
  sql<GroupRow & { project: string | null; path: string }>`select g.*,
      ${projectForUserJson(userId, sql`g.project_id`)} as project,
      ${groupPathJson(sql`g.id`, false)} as path
    from groups g where g.id = ${groupId}`,
);

const projectOf = (json: string): ProjectForUser => projectForUserOf(JSON.parse(json) as ProjectForUserRow);

/** The translation read along with its entry (entryForWriteQuery), or undefined. */
const translationOf = (json: string | null): TranslationRow | undefined => (json === null ? undefined : (JSON.parse(json) as TranslationRow));


