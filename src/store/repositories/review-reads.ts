/** What a bulk review reads: the named entries of a project with their translation in one language. */
import { inLists } from '../id-lists.js';
import type { Db, EntryRow, TranslationRow } from '../schema.js';

export interface EntryWithTranslation {
  entry: Pick<EntryRow, 'id' | 'group_id' | 'technical_name' | 'base_revision'>;
  translation: TranslationRow | undefined;
}

/** Those of `entryIds` that are entries of the project, each with its translation in `language` if any. */
export async function entriesWithTranslation(db: Db, projectId: string, entryIds: readonly string[], language: string): Promise<EntryWithTranslation[]> {
  return inLists(entryIds, async (ids) => {
    const entries = await db
      .selectFrom('entries')
      .select(['id', 'group_id', 'technical_name', 'base_revision'])
      .where('project_id', '=', projectId)
      .where('id', 'in', ids)
      .execute();
    if (entries.length === 0) return [];
    const translations = await db
      .selectFrom('translations')
      .selectAll()
      .where('language', '=', language)
      .where(
        'entry_id',
        'in',
        entries.map((entry) => entry.id),
      )
      .execute();
    const byEntry = new Map(translations.map((row) => [row.entry_id, row]));
    return entries.map((entry) => ({ entry, translation: byEntry.get(entry.id) }));
  });
}
