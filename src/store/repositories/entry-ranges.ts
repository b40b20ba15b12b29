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
  if (isPostgres(db)) {
    yield sql<boolean>`true`;
    return;
  }
  let after: { created_at: string; id: string } | undefined;
  for (;;) {
    const last = await db
      .selectFrom('entries')
      .select(['created_at', 'id'])
      .where('project_id', '=', projectId)
      .$if(after !== undefined, (query) => query.where(sql<boolean>`(created_at, id) > (${after!.created_at}, ${after!.id})`))
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .offset(entriesPerRange - 1)
      .executeTakeFirst();
    const from = after ? sql<boolean>`(e.created_at, e.id) > (${after.created_at}, ${after.id})` : sql<boolean>`true`;
    yield last ? sql<boolean>`${from} and (e.created_at, e.id) <= (${last.created_at}, ${last.id})` : from;
    if (!last) return;
    after = last;
    // An embedded read answers within the turn that asked it: without a turn of its own in between,
    // the requests waiting would still wait for the last range.
    await yieldToEventLoop();
  }
}
