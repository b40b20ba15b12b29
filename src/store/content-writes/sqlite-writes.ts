/**
 * The embedded store's writes (dialect-writes.ts): plain statements, one after another. A statement
 * costs no round trip here, but each is ~15–25 µs of the driver's time in a write of ~400: the start
 * reads what the write checks in one statement (the entry or group with its path, its project as the
 * user sees it, the translation the write asks for), then bumps the project by its id.
 */
import { sql } from 'kysely';
import { TRANSLATION_FIELDS } from '../repositories/entries.js';
import { nameTakenUnderParent } from '../repositories/groups.js';
import { projectForUserJson, projectForUserOf, type ProjectForUser, type ProjectForUserRow } from '../repositories/projects.js';
import { markTranslated } from '../repositories/missing-translations.js';
import { prepared } from '../prepared.js';
import { beginProjectWrite } from './project-lock.js';
import type { EntryRow, GroupRow, TranslationRow } from '../schema.js';
import { groupPathJson, pathOf, recordChangeSet } from './change-log.js';
import type { DialectWrites } from './dialect-writes.js';
import { insertEntryQuery, insertLackingQuery } from './entry-rows.js';
import { upsertTranslation } from './translation-rows.js';

export const sqliteWrites: DialectWrites = {
  // The read comes first here: a write holds the one writer from its start to its end (sqlite/group-commit.ts),
  // so nothing it read can change before its bump, which then finds the project by its id (~5 µs less than
  // through the entry). The project read before the bump is given the bumped version, as PostgreSQL reads it.
  async startEntryWrite(db, entryId, now, userId, language) {
    const [row] = (await entryForWriteQuery(db, entryId, userId, language)).rows;
    if (!row || row.project === null) return undefined;
    const { project, translation, group_path, ...entry } = row;
    const version = await beginProjectWrite(db, entry.project_id, now);
    if (version === undefined) return undefined;
    return { version, entry, project: projectOf(project, version), translation: translationOf(translation), groupPath: pathOf(group_path) };
  },

  async startGroupWrite(db, groupId, now, userId) {
    const [row] = (await groupForWriteQuery(db, groupId, userId)).rows;
    if (!row || row.project === null) return undefined;
    const { project, path, ...group } = row;
    const version = await beginProjectWrite(db, group.project_id, now);
    if (version === undefined) return undefined;
    return { version, group, project: projectOf(project, version), path: pathOf(path) };
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

// What a write checks, in one statement as on PostgreSQL (postgres-writes.ts): the entry with its group
// path, its project as the user sees it (the access check's read) and, with a language, its translation,
// each of the last two as a JSON text, where there were three reads (each ~5 µs of its own besides its work).
const entryForWriteQuery = prepared(3, (_db, entryId: string, userId: string, language: string | null) =>
  sql<EntryRow & { project: string | null; translation: string | null; group_path: string }>`select e.*,
      ${projectForUserJson(userId, sql`e.project_id`)} as project,
      (select json_object(${TRANSLATION_FIELDS}) from translations t where t.entry_id = e.id and t.language = ${language}) as translation,
      ${groupPathJson(sql`e.group_id`, false)} as group_path
    from entries e where e.id = ${entryId}`,
);

const groupForWriteQuery = prepared(2, (_db, groupId: string, userId: string) =>
  sql<GroupRow & { project: string | null; path: string }>`select g.*,
      ${projectForUserJson(userId, sql`g.project_id`)} as project,
      ${groupPathJson(sql`g.id`, false)} as path
    from groups g where g.id = ${groupId}`,
);

/** The project read along (a JSON text), at the content version the write's bump gave it. */
const projectOf = (json: string, version: number): ProjectForUser => ({ ...projectForUserOf(JSON.parse(json) as ProjectForUserRow), contentVersion: version });

/** The translation read along with its entry (entryForWriteQuery), or undefined. */
const translationOf = (json: string | null): TranslationRow | undefined => (json === null ? undefined : (JSON.parse(json) as TranslationRow));
