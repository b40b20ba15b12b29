/**
 * What an import compares its files with: a project's entries with their latest texts, in keyset
 * batches (as exports read them), and with each translation's review state where it is not plain
 * (CONTRACT "Review"): an import records a replaced translation's exact `before`, and markReviewed
 * leaves a reviewed, current one alone. A plain translation (translated, no kept review, written
 * against the entry's current base term) is folded as its text alone, so a project never reviewed
 * costs what it did before review states: one fold, the same JSON.
 */
import { sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import type { Db, TranslationRow } from '../schema.js';

/** A translation's review columns, read only where they say more than "translated, current, never reviewed". */
export type ImportedReviewColumns = Pick<TranslationRow, 'state' | 'base_revision' | 'reviewed_text' | 'reviewed_by' | 'reviewed_at' | 'reviewed_revision'>;

export interface ImportRow {
  id: string;
  groupId: string;
  technicalName: string;
  baseTerm: string;
  contextInfo: string | null;
  arbMetadata: string | null;
  /** how many times the base term changed other than by a minor edit (migration 016) */
  baseRevision: number;
  /** language → its latest text; only the languages that have a translation */
  translations: Record<string, string>;
  /** language → review columns, for the translations that are not plain; undefined when none is */
  states: Record<string, ImportedReviewColumns> | undefined;
}

export interface ImportCursor {
  groupId: string;
  technicalName: string;
}

/**
 * Up to `limit` entries of the project after `after`, in (group id, technical name) order, each with
 * its translations folded into one JSON object by the database (one row per entry: the rows, not the
 * bytes, are what a driver spends its time on).
 */
export async function importBatch(db: Db, projectId: string, after: ImportCursor | null, limit: number): Promise<ImportRow[]> {
  let query = db
    .selectFrom('entries as e')
    .select(['e.id', 'e.group_id', 'e.technical_name', 'e.base_term', 'e.context_info', 'e.arb_metadata', 'e.base_revision', foldedTranslations(db).as('translations')])
    .where('e.project_id', '=', projectId)
    .orderBy('e.group_id')
    .orderBy('e.technical_name')
    .limit(limit);
  // A row-value comparison: the form that lets both stores seek the (project_id, group_id, technical_name) index.
  if (after) query = query.where(sql<boolean>`(e.group_id, e.technical_name) > (${after.groupId}, ${after.technicalName})`);
  return (await query.execute()).map(importRow);
}

/** Not plain: reviewed, keeping a review, or outdated. Every other translation folds as its text. */
const NOT_PLAIN = sql`t.state <> 'translated' or t.reviewed_text is not null or t.base_revision < e.base_revision`;
const STATE_COLUMNS = sql`t.state, t.base_revision, t.reviewed_text, t.reviewed_by, t.reviewed_at, t.reviewed_revision`;

/** language → text, or → [text, …STATE_COLUMNS] for a translation that is not plain. */
function foldedTranslations(db: Db) {
  return isPostgres(db)
    ? sql<unknown>`(select json_object_agg(t.language, case when ${NOT_PLAIN} then json_build_array(t.translation, ${STATE_COLUMNS}) else to_json(t.translation) end)
        from translations t where t.entry_id = e.id)`
    : sql<unknown>`(select json_group_object(t.language, case when ${NOT_PLAIN} then json_array(t.translation, ${STATE_COLUMNS}) else t.translation end)
        from translations t where t.entry_id = e.id)`;
}

type Folded = string | [text: string, state: string, baseRevision: number, reviewedText: string | null, reviewedBy: string | null, reviewedAt: string | null, reviewedRevision: number | null];

interface FoldedRow {
  id: string;
  group_id: string;
  technical_name: string;
  base_term: string;
  context_info: string | null;
  arb_metadata: string | null;
  base_revision: number | string;
  translations: unknown;
}

function importRow(row: FoldedRow): ImportRow {
  // SQLite gives the folded object as JSON text, PostgreSQL (through pg) already parsed, or null for none.
  const folded = (row.translations === null || row.translations === undefined ? {} : typeof row.translations === 'string' ? JSON.parse(row.translations) : row.translations) as Record<string, Folded>;
  let states: Record<string, ImportedReviewColumns> | undefined;
  for (const language in folded) {
    const value = folded[language]!;
    if (typeof value === 'string') continue;
    const [text, state, baseRevision, reviewedText, reviewedBy, reviewedAt, reviewedRevision] = value;
    (states ??= {})[language] = { state, base_revision: Number(baseRevision), reviewed_text: reviewedText, reviewed_by: reviewedBy, reviewed_at: reviewedAt, reviewed_revision: reviewedRevision === null ? null : Number(reviewedRevision) };
    (folded as Record<string, string>)[language] = text;
  }
  return {
    id: row.id,
    groupId: row.group_id,
    technicalName: row.technical_name,
    baseTerm: row.base_term,
    contextInfo: row.context_info,
    arbMetadata: row.arb_metadata,
    baseRevision: Number(row.base_revision),
    translations: folded as Record<string, string>,
    states,
  };
}
