/**
 * Review reads over a project's translations (CONTRACT "Review", Lists): the translations that need a
 * review, and how many translations are reviewed or outdated per language. "Needs a review" is the
 * domain's `reviewStateOf(row) !== 'reviewed' || isOutdated(row, entryRevision)`
 * (domain/review/translation-state.ts) said in SQL, so that the database filters, orders and counts.
 *
 * No index of its own: translations carry no project, so both reads walk the project's entries
 * (entries_project, in the list's order) and probe each one's translations (translations_entry_language).
 * A page near the start stops after its rows; a count reads every translation of the project in the
 * language(s): on 100,000 entries × 10 languages about 0.3-0.7 s of either store (the callers keep
 * the answers per content version), which SQLite spends range by range (entry-ranges.ts).
 */
import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import type { Database, Db, EntryRow, TranslationRow } from '../schema.js';
import { boundedEntryRanges, ENTRIES_PER_RANGE, entryRanges, type EntryRange } from './entry-ranges.js';

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
 * given). Range by range (entry-ranges.ts): the page's rows are picked in the ranges that hold them,
 * and a range is counted only where its rows do not tell (one the page skips whole, or ends in); once
 * the page is full, the ranges left are counted for the total, unless it is known. `entriesPerRange`:
 * tests take small ranges.
 */
export async function listUnreviewed(
  db: Db,
  projectId: string,
  language: string,
  limit: number,
  offset: number,
  knownTotal?: number,
  entriesPerRange = ENTRIES_PER_RANGE,
) {
  const inRange = (range: RawBuilder<boolean>) => withTranslation(db, projectId, language).where(needsReview).where(range);
  const count = async (range: RawBuilder<boolean>) => Number((await inRange(range).select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()).total);
  const picked: { id: string; created_at: string }[] = [];
  let skip = offset;
  let counted = 0;
  for await (const range of entryRanges(db, projectId, entriesPerRange)) {
    const wanted = limit - picked.length;
    if (wanted === 0) {
      if (knownTotal !== undefined) break;
      counted += await count(range);
      continue;
    }
    // Chosen on narrow rows (the skip included); only the page's rows then bring their texts.
    const found = await inRange(range).select(['e.id', 'e.created_at']).orderBy('e.created_at').orderBy('e.id').limit(wanted).offset(skip).execute();
    picked.push(...found);
    if (found.length === 0 && skip > 0) {
      // the page starts past this range
      const here = await count(range);
      counted += here;
      skip -= here;
    } else if (found.length < wanted) {
      // the range ended before the page did: its rows are the skipped and the found
      counted += skip + found.length;
      skip = 0;
    } else {
      skip = 0;
      if (knownTotal === undefined) counted += await count(range);
    }
  }
  return { rows: await withTexts(db, language, picked), total: knownTotal ?? counted };
}

/** The picked entries with their texts and their translation in `language`, in the order picked. */
async function withTexts(db: Db, language: string, picked: readonly { id: string }[]): Promise<UnreviewedRow[]> {
  if (picked.length === 0) return [];
  const found = await db
    .selectFrom('entries as e')
    .innerJoin('translations as t', (join) => join.onRef('t.entry_id', '=', 'e.id').on('t.language', '=', language))
    .select(['e.id', 'e.group_id', 'e.technical_name', 'e.base_term', 'e.context_info', 'e.base_revision as entry_revision'])
    .select(['t.id as translation_id', 't.language', 't.translation', 't.translator_id', 't.created_at', 't.updated_at', 't.state'])
    .select(['t.base_revision', 't.reviewed_text', 't.reviewed_by', 't.reviewed_at', 't.reviewed_revision'])
    .where('e.id', 'in', picked.map((entry) => entry.id))
    .execute();
  const byId = new Map(found.map((row) => [row.id, unreviewedRow(row)]));
  // An entry deleted since it was picked is left out.
  return picked.flatMap((entry) => byId.get(entry.id) ?? []);
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

/** Each range of the project's entries (entry-ranges.ts) with its review counts by language. */
export interface RangeCounts {
  range: EntryRange;
  counts: Map<string, ReviewCounts>;
}

/**
 * Reviewed (and current) and outdated translations of the project, per language of `languages`. Only
 * rows that count in either reach the grouping (a reviewed translation, or one of an entry whose base
 * term changed): a project with few of them pays the walk and little more. Every language is counted
 * in the one walk (each entry's translations are one index range; a list of languages would seek once
 * per language and entry) and the project's own picked out here, range by range (entry-ranges.ts).
 */
export async function countReviewStates(
  db: Db,
  projectId: string,
  languages: readonly string[],
  entriesPerRange = ENTRIES_PER_RANGE,
): Promise<Map<string, ReviewCounts>> {
  return sumCounts(await countReviewStatesByRange(db, projectId, entriesPerRange), languages);
}

/** The counts of every range of the project's entries, each kept apart (so that one can be counted again alone). */
export async function countReviewStatesByRange(db: Db, projectId: string, entriesPerRange = ENTRIES_PER_RANGE): Promise<RangeCounts[]> {
  const ranges: RangeCounts[] = [];
  for await (const range of boundedEntryRanges(db, projectId, entriesPerRange)) ranges.push({ range, counts: await countReviewStatesIn(db, projectId, range) });
  return ranges;
}

/** The review counts of the translations of one range of the project's entries, by language. */
export async function countReviewStatesIn(db: Db, projectId: string, range: EntryRange): Promise<Map<string, ReviewCounts>> {
  const rows = await db
    .selectFrom('entries as e')
    .innerJoin('translations as t', 't.entry_id', 'e.id')
    .select('t.language')
    .select(sql<number | string>`sum(case when t.state = 'reviewed' and t.base_revision >= e.base_revision then 1 else 0 end)`.as('reviewed'))
    .select(sql<number | string>`sum(case when t.base_revision < e.base_revision then 1 else 0 end)`.as('outdated'))
    .where('e.project_id', '=', projectId)
    .where(range.condition)
    .where((eb) => eb.or([eb('t.state', '=', 'reviewed'), eb('e.base_revision', '>', 0)]))
    .groupBy('t.language')
    .execute();
  return new Map(rows.map((row) => [row.language, { reviewed: Number(row.reviewed), outdated: Number(row.outdated) }]));
}

/** The ranges' counts added up, for `languages` (zero where none counted). */
export function sumCounts(ranges: readonly RangeCounts[], languages: readonly string[]): Map<string, ReviewCounts> {
  const counts = new Map(languages.map((language) => [language, { reviewed: 0, outdated: 0 }]));
  for (const { counts: ofRange } of ranges) {
    for (const [language, counted] of ofRange) {
      const sum = counts.get(language);
      if (!sum) continue;
      sum.reviewed += counted.reviewed;
      sum.outdated += counted.outdated;
    }
  }
  return counts;
}
