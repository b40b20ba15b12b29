/** The daily request counter. */
import type { Db } from '../schema.js';
import { sql } from 'kysely';
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

/** A live key's row (as findActiveKeyByHash gives it) and the count of the request just counted, or null when refused. */
export interface KeyAndCount {
  keyId: string;
  secretHash: string;
  lastUsedAt: string | null;
  userId: string;
  dailyQuota: number;
  counted: number | null;
}

/**
 * The live key with this secret hash, and one request counted for its user against the user's quota
 * (the conditional upsert of countRequest), in one statement: one round trip instead of two for every
 * API request. Nothing is counted for an unknown, revoked or expired key. PostgreSQL only: on SQLite
 * the counts live in a file of their own (store/sqlite/usage-file.ts), and a query there costs no trip.
 */
export async function findKeyAndCountRequest(db: Db, secretHash: string, now: string, day: string): Promise<KeyAndCount | undefined> {
  const [row] = (await keyAndCountQuery(db, secretHash, now, day)).rows;
  return row && { ...row, dailyQuota: Number(row.dailyQuota), counted: row.counted === null ? null : Number(row.counted) };
}

const keyAndCountQuery = prepared(3, (_db, secretHash: string, now: string, day: string) =>
  sql<Omit<KeyAndCount, 'dailyQuota' | 'counted'> & { dailyQuota: number | string; counted: number | string | null }>`
    with key as (
      select k.id as "keyId", k.secret_hash as "secretHash", k.last_used_at as "lastUsedAt", u.id as "userId", u.daily_quota as "dailyQuota"
      from api_keys k join users u on u.id = k.user_id
      where k.secret_hash = ${secretHash} and k.revoked_at is null and (k.expires_at is null or k.expires_at > ${now})
    ), counted as (
      insert into daily_usage (user_id, day, count)
      select "userId", ${day}, 1 from key where "dailyQuota" > 0
      on conflict (user_id, day) do update set count = daily_usage.count + 1
        where daily_usage.count < (select "dailyQuota" from key)
      returning count
    )
    select key.*, (select count from counted) as counted from key`,
);
