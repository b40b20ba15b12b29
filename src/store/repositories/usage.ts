/** The daily request counter. */
import type { Db } from '../schema.js';
import { sql, type RawBuilder } from 'kysely';
import { isPostgres } from '../dialect.js';
import { prepared } from '../prepared.js';
import { projectForUserOf, projectForUserSelect, type ProjectForUser, type ProjectForUserRow } from './projects.js';

/**
 * Counts one request of the user on `day` unless `limit` requests are counted already, in one
 * statement: the conditional upsert holds the row's lock, so concurrent requests from any number of
 * server processes can never count past the limit. Returns the new count, or null when refused.
 */
export async function countRequest(db: Db, userId: string, day: string, limit: number): Promise<number | null> {
  if (limit <= 0) return null;
  const [row] = (await (isPostgres(db) ? relaxedCountQuery : countQuery)(db, userId, day, limit)).rows;
  return row ? Number(row.count) : null;
}

/** The user's count of `day` (0 when nothing was counted yet). */
export async function countOf(db: Db, userId: string, day: string): Promise<number> {
  const row = await db.selectFrom('daily_usage').select('count').where('user_id', '=', userId).where('day', '=', day).executeTakeFirst();
  return row ? Number(row.count) : 0;
}

/**
 * On PostgreSQL a count's transaction commits without waiting for its WAL to reach the disk
 * (`synchronous_commit = off` for that transaction only, set by the statement itself, so nothing
 * stays on a pooled connection). Waiting for that flush was most of a read's time: point reads
 * ~1,330 → ~2,100 a second, interleaved in the same run (bench/ab.mjs, issue 17). The count is visible to every
 * instance at once as before, so the quota stays exact; only a crash of the database server itself
 * may forget the counts of its last moment (≤ 3 × wal_writer_delay, 0.6 s by default), never content:
 * every content write still waits for its flush, and that flush carries the counts before it.
 */
const RELAXED_COMMIT = sql`relaxed as (select set_config('synchronous_commit', 'off', true) as setting)`;

/**
 * One more request counted for the (user, day) of `row` (a select of the user's id, the day and 1)
 * unless `limit` are counted already: the conditional upsert of both PostgreSQL count statements.
 */
const COUNT_ONE = (row: RawBuilder<unknown>, limit: RawBuilder<unknown> | number) => sql`insert into daily_usage (user_id, day, count) ${row}
    on conflict (user_id, day) do update set count = daily_usage.count + 1 where daily_usage.count < ${limit}
    returning count`;

const relaxedCountQuery = prepared(3, (_db, userId: string, day: string, limit: number) =>
  sql<{ count: number | string }>`with ${RELAXED_COMMIT} ${COUNT_ONE(sql`select ${userId}, ${day}, 1 from relaxed`, limit)}`,
);

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
  /** the request's project as the key's user sees it, when a target was given (undefined: no such project) */
  project?: ProjectForUser | undefined;
}

/** Where a request's project is found: its own id, or the id of one of its groups or entries. */
export interface ProjectTarget {
  projectId?: string;
  groupId?: string;
  entryId?: string;
}

/**
 * The live key with this secret hash, and one request counted for its user against the user's quota
 * (the conditional upsert of countRequest), in one statement: one round trip instead of two for every
 * API request. Nothing is counted for an unknown, revoked or expired key. PostgreSQL only: on SQLite
 * the counts live in a file of their own (store/sqlite/usage-file.ts), and a query there costs no trip.
 */
export async function findKeyAndCountRequest(db: Db, secretHash: string, now: string, day: string, target?: ProjectTarget): Promise<KeyAndCount | undefined> {
  if (target) {
    const [row] = (await keyCountAndProjectQuery(db, secretHash, now, day, target.projectId ?? null, target.groupId ?? null, target.entryId ?? null)).rows;
    return row && { ...keyAndCount(row), project: row.project === null ? undefined : projectForUserOf(row.project) };
  }
  const [row] = (await keyAndCountQuery(db, secretHash, now, day)).rows;
  return row && keyAndCount(row);
}

type KeyAndCountRow = Omit<KeyAndCount, 'dailyQuota' | 'counted' | 'project'> & { dailyQuota: number | string; counted: number | string | null };

const keyAndCount = (row: KeyAndCountRow): KeyAndCount => ({
  keyId: row.keyId,
  secretHash: row.secretHash,
  lastUsedAt: row.lastUsedAt,
  userId: row.userId,
  dailyQuota: Number(row.dailyQuota),
  counted: row.counted === null ? null : Number(row.counted),
});

const KEY_AND_COUNT = (secretHash: string, now: string, day: string) => sql`
  with ${RELAXED_COMMIT}, key as (
    select k.id as "keyId", k.secret_hash as "secretHash", k.last_used_at as "lastUsedAt", u.id as "userId", u.daily_quota as "dailyQuota"
    from api_keys k join users u on u.id = k.user_id
    where k.secret_hash = ${secretHash} and k.revoked_at is null and (k.expires_at is null or k.expires_at > ${now})
  ), counted as (
    ${COUNT_ONE(sql`select "userId", ${day}, 1 from key cross join relaxed where "dailyQuota" > 0`, sql`(select "dailyQuota" from key)`)}
  )`;

const keyAndCountQuery = prepared(3, (_db, secretHash: string, now: string, day: string) =>
  sql<KeyAndCountRow>`${KEY_AND_COUNT(secretHash, now, day)}
    select key.*, (select count from counted) as counted from key`,
);

/**
 * The same, and the request's project with the user's membership (the access check's read, as
 * findProjectForUser and acceptedBefore give it), found by the project's id or one of its groups' or
 * entries': authentication, quota and access in one round trip.
 */
const keyCountAndProjectQuery = prepared(6, (_db, secretHash: string, now: string, day: string, projectId: string | null, groupId: string | null, entryId: string | null) =>
  sql<KeyAndCountRow & { project: ProjectForUserRow | null }>`${KEY_AND_COUNT(secretHash, now, day)},
    target as (${projectForUserSelect(
      sql`(select "userId" from key)`,
      sql`coalesce(${projectId}::text, (select g.project_id from groups g where g.id = ${groupId}::text), (select e.project_id from entries e where e.id = ${entryId}::text))`,
    )})
    select key.*, (select count from counted) as counted, (select row_to_json(target) from target) as project from key`,
);
