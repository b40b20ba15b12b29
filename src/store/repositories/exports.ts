/** The reads behind exports: a project's texts in one language, in keyset batches. */
import { sql } from 'kysely';
import type { Db } from '../schema.js';

export interface ExportRow {
  group_id: string;
  technical_name: string;
  context_info: string | null;
  text: string;
}

export interface ExportCursor {
  groupId: string;
  technicalName: string;
}

/**
 * Up to `limit` entries of the project after `after`, in (group id, technical name) order, with
 * their text in `language`: the translation, or the base term where there is none. `language`
 * null reads the base terms.
 */
export async function exportBatch(db: Db, projectId: string, language: string | null, after: ExportCursor | null, limit: number): Promise<ExportRow[]> {
  let query = db
    .selectFrom('entries as e')
    .where('e.project_id', '=', projectId)
    .orderBy('e.group_id')
    .orderBy('e.technical_name')
    .limit(limit);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('e.group_id', '>', after.groupId), eb.and([eb('e.group_id', '=', after.groupId), eb('e.technical_name', '>', after.technicalName)])]),
    );
  }
  if (language === null) {
    return query.select(['e.group_id', 'e.technical_name', 'e.context_info', 'e.base_term as text']).execute();
  }
  return query
    .leftJoin('translations as t', (join) => join.onRef('t.entry_id', '=', 'e.id').on('t.language', '=', language))
    .select(['e.group_id', 'e.technical_name', 'e.context_info', sql<string>`coalesce(t.translation, e.base_term)`.as('text')])
    .execute();
}
