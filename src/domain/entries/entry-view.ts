/** Entry, Entry summary, Untranslated entry and Translation as the API shows them. */
import type { EntryRow, TranslationRow } from '../../store/schema.js';

export interface EntrySummaryView {
  id: string;
  groupId: string;
  technicalName: string;
  baseTerm: string;
  contextInfo: string | null;
  createdAt: string;
}

export interface TranslationView {
  id: string;
  language: string;
  translation: string;
  translatorId: string;
  createdAt: string;
  updatedAt: string;
}

/** Maps a stored entry to the Entry summary shape. */
export function entrySummaryView(row: EntryRow): EntrySummaryView {
  return {
    id: row.id,
    groupId: row.group_id,
    technicalName: row.technical_name,
    baseTerm: row.base_term,
    contextInfo: row.context_info,
    createdAt: row.created_at,
  };
}

/** Maps a stored translation to its API shape. */
export function translationView(row: TranslationRow): TranslationView {
  return {
    id: row.id,
    language: row.language,
    translation: row.translation,
    translatorId: row.translator_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * A translation's ETag: its updatedAt, quoted. The entry GET shows updatedAt, so an editor that
 * read the entry can send `If-Match` without a second request.
 */
export const translationEtag = (row: Pick<TranslationRow, 'updated_at'>): string => `"${row.updated_at}"`;
