/** What a bulk review reads: the named entries of a project with their translation in one language. */
import type { Db, EntryRow, TranslationRow } from '../schema.js';

export interface EntryWithTranslation {
  entry: Pick<EntryRow, 'id' | 'group_id' | 'technical_name' | 'base_revision'>;
  translation: TranslationRow | undefined;
}

/** Ids per `in (…)` list: far below both stores' parameter limits. */
const IDS_PER_STATEMENT = 500;

/** Those of `entryIds` that are entries of the project, each with its translation in `language` if any. */
export async function entriesWithTranslation(db: Db, projectId: string, entryIds: readonly string[], language: string): Promise<EntryWithTranslation[]> {
  const found: EntryWithTranslation[] = [];
  for (let start = 0; start < entryIds.length; start += IDS_PER_STATEMENT) {
    const ids = entryIds.slice(start, start + IDS_PER_STATEMENT);
    const entries = await db
      .selectFrom('entries')
      .select(['id', 'group_id', 'technical_name', 'base_revision'])
      .where('project_id', '=', projectId)
      .where('id', 'in', ids)
      .execute();
    if (entries.length === 0) continue;
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
    for (const entry of entries) found.push({ entry, translation: byEntry.get(entry.id) });
  }
  return found;
}
