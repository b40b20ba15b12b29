/** The daily request counter. */
import { sql } from 'kysely';
import type { Db } from '../schema.js';

/**
 * Counts one request of the user on `day` unless `limit` requests are counted already, in one
 * statement: the conditional upsert holds the row's lock, so concurrent requests from any number of
 * server processes can never count past the limit. Returns the new count, or null when refused.
 */
export async function countRequest(db: Db, userId: string, day: string, limit: number): Promise<number | null> {
  if (limit <= 0) return null;
  const { rows } = await sql<{ count: number | string }>`
    insert into daily_usage (user_id, day, count) values (${userId}, ${day}, 1)
    on conflict (user_id, day) do update set count = daily_usage.count + 1
    where daily_usage.count < ${limit}
    returning count`.execute(db);
  const row = rows[0];
  return row ? Number(row.count) : null;
}

/** The user's daily quota and the count of the day so far. */
export async function usageOf(db: Db, userId: string, day: string): Promise<{ quota: number; used: number } | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('daily_usage as u', (join) => join.onRef('u.user_id', '=', 'users.id').on('u.day', '=', day))
    .select(['users.daily_quota as quota', 'u.count as used'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return row && { quota: Number(row.quota), used: Number(row.used ?? 0) };
}
