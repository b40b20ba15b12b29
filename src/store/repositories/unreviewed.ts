/**
 * Review reads over a project's translations (CONTRACT "Review", Lists): the translations that need a
 * review, and how many translations are reviewed or outdated per language. "Needs a review" is the
 * domain's `reviewStateOf(row) !== 'reviewed' || isOutdated(row, entryRevision)`
 * (domain/review/translation-state.ts) said in SQL, so that the database filters, orders and counts.
 *
 * No index of its own: translations carry no project, so both reads walk the project's entries
 * (entries_project, in the list's order) and probe each one's translation (translations_entry_language).
 * A page near the start stops after its rows; a total or a count reads every translation of the
 * project in the language(s): about 130-300 ms on 100,000 entries × 10 languages (the callers keep
 * the answers per content version).
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Db, EntryRow, TranslationRow } from '../schema.js';

/** A translation that is not reviewed, or was written, confirmed or reviewed against an earlier base term. */
type Joined = Database & { e: Database['entries']; t: Database['translations'] };
const needsReview = (eb: ExpressionBuilder<Joined, 'e' | 't'>) =>
  eb.or([eb('t.state', '<>', 'reviewed'), eb('t.base_revision', '<', eb.ref('e.base_revision'))]);

/** The project's entries joined to their translation in `language`. */
const withTranslation = (db: Db, projectId: string, language: string) =>
  db
    .selectFrom('entries as e')
    .innerJoin('translations as t', (join) => join.onRef('t.entry_id', '=', 'e.id').on('t.language', '=', language))
    .where('e.project_id', '=', projectId);

export interface UnreviewedRow {
  entry: Pick<EntryRow, 'id' | 'group_id' | 'technical_name' | 'base_term' | 'context_info' | 'base_revision'>;
  translation: TranslationRow;
}

/**
 * A page of the project's entries whose translation in `language` needs a review, oldest first (the
 * untranslated list's order), with that translation, and their total (counted unless `knownTotal` is
 * given, or the page is the last one: then it is the rows before and on it).
 */
export async function listUnreviewed(db: Db, projectId: string, language: string, limit: number, offset: number, knownTotal?: number) {
  const scope = withTranslation(db, projectId, language).where(needsReview);
  // The page is chosen on narrow rows (offset included); only its rows then bring their texts.
  const page = scope.select(['e.id', 'e.created_at']).orderBy('e.created_at').orderBy('e.id').limit(limit).offset(offset);
  const found = await db
    .selectFrom(page.as('p'))
    .innerJoin('entries as e', 'e.id', 'p.id')
    .innerJoin('translations as t', (join) => join.onRef('t.entry_id', '=', 'e.id').on('t.language', '=', language))
    .select(['e.id', 'e.group_id', 'e.technical_name', 'e.base_term', 'e.context_info', 'e.base_revision as entry_revision'])
    .select(['t.id as translation_id', 't.language', 't.translation', 't.translator_id', 't.created_at', 't.updated_at', 't.state'])
    .select(['t.base_revision', 't.reviewed_text', 't.reviewed_by', 't.reviewed_at', 't.reviewed_revision'])
    .orderBy('p.created_at')
    .orderBy('p.id')
    .execute();
  const rows = found.map(unreviewedRow);
  const isLast = rows.length < limit && (rows.length > 0 || offset === 0);
  const total =
    knownTotal ??
    (isLast ? offset + rows.length : Number((await scope.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()).total));
  return { rows, total };
}

function unreviewedRow(row: {
  id: string;
  group_id: string;
  technical_name: string;
  base_term: string;
  context_info: string | null;
  entry_revision: number;
  translation_id: string;
} & Omit<TranslationRow, 'id' | 'entry_id'>): UnreviewedRow {
  const { id, group_id, technical_name, base_term, context_info, entry_revision, translation_id, ...translation } = row;
  return {
    entry: { id, group_id, technical_name, base_term, context_info, base_revision: entry_revision },
    translation: { ...translation, id: translation_id, entry_id: id },
  };
}

export interface ReviewCounts {
  /** reviewed against the current base term */
  reviewed: number;
  /** written, confirmed or reviewed against an earlier base term (reviewed or not) */
  outdated: number;
}

/**
 * Reviewed (and current) and outdated translations of the project, per language of `languages`. Only
 * rows that count in either reach the grouping (a reviewed translation, or one of an entry whose base
 * term changed): what costs is the walk, and a project with few of them pays little more. Every
 * language is counted in the one walk (each entry's translations are one index range; a list of
 * languages would seek once per language and entry) and the project's own picked out here.
 */
export async function countReviewStates(db: Db, projectId: string, languages: readonly string[]): Promise<Map<string, ReviewCounts>> {
  if (languages.length === 0) return new Map();
  const rows = await db
    .selectFrom('entries as e')
    .innerJoin('translations as t', 't.entry_id', 'e.id')
    .select('t.language')
    .select(sql<number | string>`sum(case when t.state = 'reviewed' and t.base_revision >= e.base_revision then 1 else 0 end)`.as('reviewed'))
    .select(sql<number | string>`sum(case when t.base_revision < e.base_revision then 1 else 0 end)`.as('outdated'))
    .where('e.project_id', '=', projectId)
    .where((eb) => eb.or([eb('t.state', '=', 'reviewed'), eb('e.base_revision', '>', 0)]))
    .groupBy('t.language')
    .execute();
  const counts = new Map(rows.map((row) => [row.language, { reviewed: Number(row.reviewed), outdated: Number(row.outdated) }]));
  return new Map(languages.map((language) => [language, counts.get(language) ?? { reviewed: 0, outdated: 0 }]));
}
