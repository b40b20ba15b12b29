/**
 * A project's entries in ranges, for reads that would otherwise take every entry in one statement
 * (the review counts and lists: repositories/unreviewed.ts). The embedded store reads on this
 * process's thread: one statement over 100,000 entries and their translations holds every other
 * request for half a second or more; range by range, with a turn of the event loop between two, they
 * run in between. PostgreSQL's server does the work (in parallel, off this thread): one range.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql, type RawBuilder } from 'kysely';
import { isPostgres } from '../dialect.js';
import type { Db } from '../schema.js';

/** Entries a range holds on SQLite: 10-30 ms of statement over 10 languages' translations on one machine. */
export const ENTRIES_PER_RANGE = 2_000;

/**
 * Conditions on `e` (the project's entries), one per range of entries in entries_project's order
 * (created_at, id), the ranges covering the project once; each bound is found on the index alone.
 * A write between two ranges may be read in part: callers keep the answer under the content version
 * read before it, which that write has passed.
 */
export async function* entryRanges(db: Db, projectId: string, entriesPerRange = ENTRIES_PER_RANGE): AsyncGenerator<RawBuilder<boolean>> {
  for await (const range of boundedEntryRanges(db, projectId, entriesPerRange)) yield range.condition;
}

/** An entry's place in entries_project's order. */
export interface EntryPlace {
  created_at: string;
  id: string;
}

/** A range of entryRanges with its bounds: after `after` (from the start: null), up to `last` (to the end: null). */
export interface EntryRange {
  condition: RawBuilder<boolean>;
  after: EntryPlace | null;
  last: EntryPlace | null;
}

/** entryRanges with each range's bounds (to count a range again later: rangeBetween). */
export async function* boundedEntryRanges(db: Db, projectId: string, entriesPerRange = ENTRIES_PER_RANGE): AsyncGenerator<EntryRange> {
  if (isPostgres(db)) {
    yield rangeBetween(null, null);
    return;
  }
  let after: EntryPlace | null = null;
  for (;;) {
    const last: EntryPlace | undefined = await db
      .selectFrom('entries')
      .select(['created_at', 'id'])
      .where('project_id', '=', projectId)
      .$if(after !== null, (query) => query.where(sql<boolean>`(created_at, id) > (${after!.created_at}, ${after!.id})`))
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .offset(entriesPerRange - 1)
      .executeTakeFirst();
    yield rangeBetween(after, last ?? null);
    if (!last) return;
    after = last;
    // An embedded read answers within the turn that asked it: without a turn of its own in between,
    // the requests waiting would still wait for the last range.
    await yieldToEventLoop();
  }
}

/** The range of entries after `after` up to `last` (either null: open on that side). */
export function rangeBetween(after: EntryPlace | null, last: EntryPlace | null): EntryRange {
  const from = after ? sql<boolean>`(e.created_at, e.id) > (${after.created_at}, ${after.id})` : sql<boolean>`true`;
  const condition = last ? sql<boolean>`${from} and (e.created_at, e.id) <= (${last.created_at}, ${last.id})` : from;
  return { condition, after, last };
}

/** Whether the entry at `place` is in `range`. */
export function inRange(range: Pick<EntryRange, 'after' | 'last'>, place: EntryPlace): boolean {
  const compare = (a: EntryPlace, b: EntryPlace) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return (range.after === null || compare(place, range.after) > 0) && (range.last === null || compare(place, range.last) <= 0);
}

/** The places of these entries (those that are still there). */
export async function entryPlaces(db: Db, ids: readonly string[]): Promise<EntryPlace[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('entries').select(['created_at', 'id']).where('id', 'in', ids).execute();
}
