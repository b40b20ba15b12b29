/**
 * The embedded store's writes (dialect-writes.ts): plain statements, one after another. A statement
 * costs no round trip here, but each is ~20–30 µs of the driver's time in a write of ~300: the start
 * finds the project and bumps it in one statement, and the entry or group is read with its path (an
 * entry with the translation the write asks for, in the same statement).
 */
import { sql } from 'kysely';
import { nameTakenUnderParent } from '../repositories/groups.js';
import { findProjectWithPlace } from '../repositories/members.js';
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
    const [row] = (await entryForWriteQuery(db, entryId, language)).rows;
    if (!row) return undefined;
    const { group_path, translation, ...entry } = row;
    const project = await findProjectWithPlace(db, entry.project_id, userId);
    if (!project) return undefined;
    return { version: Number(bumped.content_version), entry, project, translation: translationOf(translation), groupPath: pathOf(group_path) };
  },

  async startGroupWrite(db, groupId, now, userId) {
    const [bumped] = (await bumpByGroupQuery(db, now, groupId)).rows;
    if (!bumped) return undefined;
    const [row] = (await groupWithPathQuery(db, groupId)).rows;
    if (!row) return undefined;
    const { path, ...group } = row;
    const project = await findProjectWithPlace(db, group.project_id, userId);
    return project && { version: Number(bumped.content_version), group, project, path: pathOf(path) };
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

// The entry with its group path and (with a language) its translation as a JSON object: one statement
// where three were (each ~5 µs of a save's own besides its work, sqlite/read-write-driver.ts `run`).
const entryForWriteQuery = prepared(2, (_db, entryId: string, language: string | null) => {
  const translationJson = sql.join(TRANSLATION_COLUMNS.map((column) => sql`${sql.lit(column)}, t.${sql.ref(column)}`));
  return sql<EntryRow & { group_path: string; translation: string | null }>`select e.*, ${groupPathJson(sql`e.group_id`, false)} as group_path,
      (select json_object(${translationJson}) from translations t where t.entry_id = e.id and t.language = ${language}) as translation
    from entries e where e.id = ${entryId}`;
});

/** The translation read along with its entry (entryForWriteQuery), or undefined. */
const translationOf = (json: string | null): TranslationRow | undefined => (json === null ? undefined : (JSON.parse(json) as TranslationRow));

const groupWithPathQuery = prepared(1, (_db, groupId: string) =>
  sql<GroupRow & { path: string }>`select g.*, ${groupPathJson(sql`g.id`, false)} as path from groups g where g.id = ${groupId}`,
);
