/** Entry, Entry summary, Untranslated entry and Translation as the API shows them. */
import type { EntryRow, TranslationRow } from '../../store/schema.js';
import { findUserNames } from '../../store/repositories/users.js';
import type { Db } from '../../store/schema.js';
import type { ReviewState } from '../changes/change.js';
import { isOutdated, reviewStateOf } from '../review/translation-state.js';

export interface EntrySummaryView {
  id: string;
  groupId: string;
  technicalName: string;
  baseTerm: string;
  contextInfo: string | null;
  createdAt: string;
}

/** Who reviewed a translation; a user whose row is gone keeps the id, with empty names. */
export interface PersonView {
  id: string;
  firstName: string;
  lastName: string;
}

export interface TranslationView {
  id: string;
  language: string;
  translation: string;
  translatorId: string;
  createdAt: string;
  updatedAt: string;
  state: ReviewState;
  outdated: boolean;
  reviewedBy: PersonView | null;
  reviewedAt: string | null;
  /** the text the last review approved, when the current one differs from it (it still ships under release=reviewed) */
  reviewedText: string | null;
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

export interface UntranslatedView {
  id: string;
  groupId: string;
  technicalName: string;
  baseTerm: string;
  contextInfo: string | null;
}

/** Maps a stored entry to the Untranslated entry shape (the untranslated and unreviewed lists' items). */
export function untranslatedView(row: Pick<EntryRow, 'id' | 'group_id' | 'technical_name' | 'base_term' | 'context_info'>): UntranslatedView {
  return { id: row.id, groupId: row.group_id, technicalName: row.technical_name, baseTerm: row.base_term, contextInfo: row.context_info };
}

/** The reviewers of these translations by id: read only when one of them keeps a review. */
export type Reviewers = ReadonlyMap<string, PersonView>;

const NO_REVIEWERS: Reviewers = new Map();

export async function reviewersOf(db: Db, rows: readonly Pick<TranslationRow, 'reviewed_by'>[]): Promise<Reviewers> {
  const ids = [...new Set(rows.flatMap((row) => (row.reviewed_by === null ? [] : [row.reviewed_by])))];
  if (ids.length === 0) return NO_REVIEWERS;
  const found = await findUserNames(db, ids);
  return new Map(found.map((user) => [user.id, { id: user.id, firstName: user.first_name, lastName: user.last_name }]));
}

/** Maps a stored translation to its API shape; `entryRevision` is its entry's base revision. */
export function translationView(row: TranslationRow, entryRevision: number, reviewers: Reviewers): TranslationView {
  const reviewed = row.reviewed_text !== null && row.reviewed_by !== null;
  return {
    id: row.id,
    language: row.language,
    translation: row.translation,
    translatorId: row.translator_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    state: reviewStateOf(row),
    outdated: isOutdated(row, entryRevision),
    reviewedBy: reviewed ? (reviewers.get(row.reviewed_by!) ?? { id: row.reviewed_by!, firstName: '', lastName: '' }) : null,
    reviewedAt: reviewed ? row.reviewed_at : null,
    reviewedText: reviewed && row.reviewed_text !== row.translation ? row.reviewed_text : null,
  };
}

/**
 * A translation's ETag: its updatedAt, quoted. The entry GET shows updatedAt, so an editor that
 * read the entry can send `If-Match` without a second request.
 */
export const translationEtag = (row: Pick<TranslationRow, 'updated_at'>): string => `"${row.updated_at}"`;

/** Whether an If-Match or If-None-Match value (a list of ETags, or *) matches the stored translation. */
export function etagMatches(header: string, stored: Pick<TranslationRow, 'updated_at'> | undefined): boolean {
  if (header.trim() === '*') return stored !== undefined;
  if (!stored) return false;
  const etag = translationEtag(stored);
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
