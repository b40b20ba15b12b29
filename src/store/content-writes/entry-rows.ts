/** An entry's own rows: the plain statements the dialects' writes, an import and a revert are made of. */
import { sql } from 'kysely';
import { inLists } from '../id-lists.js';
import { isPostgres } from '../dialect.js';
import { prepared } from '../prepared.js';
import type { Db, EntryRow } from '../schema.js';

export type EntryArgs = [string, string, string, string, string, string, string | null, string | null, string, string];

export const ENTRY_COLUMNS = sql`entries (id, project_id, group_id, technical_name, base_term, base_term_key, context_info, arb_metadata, created_at, updated_at)`;

export const ENTRY_VALUES = (...[id, projectId, groupId, technicalName, baseTerm, baseTermKey, contextInfo, arbMetadata, createdAt, updatedAt]: EntryArgs) =>
  sql`${id}, ${projectId}, ${groupId}, ${technicalName}, ${baseTerm}, ${baseTermKey}, ${contextInfo}, ${arbMetadata}, ${createdAt}, ${updatedAt}`;

/** One missing-translation row per language of the JSON array `languagesJson`. */
export const INSERT_LACKING = (db: Db, entryId: string, projectId: string, createdAt: string, languagesJson: string) => sql`
  insert into missing_translations (entry_id, language, project_id, created_at)
  select ${entryId}, value, ${projectId}, ${createdAt}
  from ${isPostgres(db) ? sql`json_array_elements_text(cast(${languagesJson} as json))` : sql`json_each(${languagesJson})`}`;

export const insertEntryQuery = prepared(10, (_db, ...args: EntryArgs) => sql`insert into ${ENTRY_COLUMNS} values (${ENTRY_VALUES(...args)})`);

export const insertLackingQuery = prepared(4, (db, entryId: string, projectId: string, createdAt: string, languagesJson: string) =>
  INSERT_LACKING(db, entryId, projectId, createdAt, languagesJson),
);

/**
 * Applies the given changes to an entry. `newBaseTerm`: the base term changed other than by a minor
 * edit, so the entry's base revision rises and every translation written against the old one is
 * outdated (CONTRACT "Review"), in this one statement however many translations the entry has.
 */
export async function updateEntry(
  db: Db,
  entryId: string,
  changes: Partial<Pick<EntryRow, 'technical_name' | 'base_term' | 'base_term_key' | 'context_info' | 'arb_metadata' | 'updated_at'>>,
  newBaseTerm = false,
): Promise<void> {
  await db
    .updateTable('entries')
    .set(changes)
    .$if(newBaseTerm, (update) => update.set((eb) => ({ base_revision: eb('base_revision', '+', 1) })))
    .where('id', '=', entryId)
    .execute();
}

/** Deletes an entry with its translations (foreign-key cascade). */
export async function deleteEntry(db: Db, entryId: string): Promise<void> {
  await db.deleteFrom('entries').where('id', '=', entryId).execute();
}

/** Deletes these entries (their translations and missing rows go with them: cascades). */
export async function deleteEntries(db: Db, ids: readonly string[]): Promise<void> {
  await inLists(ids, async (list) => {
    await db.deleteFrom('entries').where('id', 'in', list).execute();
    return [];
  });
}
