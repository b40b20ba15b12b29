/** The daily request counter. */
import type { Db } from '../schema.js';
import { prepared } from '../prepared.js';

/**
 * Counts one request of the user on `day` unless `limit` requests are counted already, in one
 * statement: the conditional upsert holds the row's lock, so concurrent requests from any number of
 * server processes can never count past the limit. Returns the new count, or null when refused.
 */
export async function countRequest(db: Db, userId: string, day: string, limit: number): Promise<number | null> {
  if (limit <= 0) return null;
  const [row] = (await countQuery(db, userId, day, limit)).rows;
  return row ? Number(row.count) : null;
}

// Every API request is counted: compiled once.
const countQuery = prepared(3, (db, userId: string, day: string, limit: number) =>
  db
    .insertInto('daily_usage')
    .values({ user_id: userId, day, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'day'])
        .doUpdateSet((eb) => ({ count: eb('daily_usage.count', '+', 1) }))
        .where('daily_usage.count', '<', limit),
    )
    .returning('count'),
);
