/** Web sessions and the sign-in failure counters (both written only by domain/accounts). */
import { sql } from 'kysely';
import type { Db, SessionsTable } from '../schema.js';
import { prepared } from '../prepared.js';

/** Stores a new session. */
export async function insertSession(db: Db, session: SessionsTable): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

/** The live session with this hash joined with its user's quota, or undefined. */
export async function findLiveSession(db: Db, idHash: string, now: string) {
  const [row] = (await liveSessionQuery(db, idHash, now)).rows;
  return row;
}

// Every request of a signed-in browser runs this first: compiled once. The user's quota comes with it:
// session requests are counted like key requests (contract "Web application").
const liveSessionQuery = prepared(2, (db, idHash: string, now: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id_hash as idHash',
      'sessions.user_id as userId',
      'sessions.csrf_secret as csrfSecret',
      'sessions.last_seen_at as lastSeenAt',
      'sessions.created_at as createdAt',
      'users.daily_quota as dailyQuota',
    ])
    .where('sessions.id_hash', '=', idHash)
    .where('sessions.expires_at', '>', now),
);

/** Moves a session's idle expiry forward. */
export async function touchSession(db: Db, idHash: string, lastSeenAt: string, expiresAt: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: lastSeenAt, expires_at: expiresAt }).where('id_hash', '=', idHash).execute();
}

/** Ends one session. */
export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of a user except `keep` (a password change signs out the other browsers). */
export async function deleteSessionsOfUser(db: Db, userId: string, keep: string | null): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep !== null) query = query.where('id_hash', '!=', keep);
  await query.execute();
}

/** Removes sessions past their expiry (run now and then; expired ones are ignored anyway). */
export async function deleteExpiredSessions(db: Db, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}

/**
 * Counts one attempt for a scope in one statement and returns the count with its window's start, so
 * that concurrent attempts on several instances each see their own place in line: a counter whose
 * window has ended starts again at 1.
 */
export async function countAttempt(db: Db, scope: string, now: string, windowStartAfter: string) {
  return db
    .insertInto('sign_in_failures')
    .values({ scope, failures: 1, window_started_at: now })
    .onConflict((conflict) =>
      conflict.column('scope').doUpdateSet({
        failures: sql<number>`case when sign_in_failures.window_started_at > ${windowStartAfter} then sign_in_failures.failures + 1 else 1 end`,
        window_started_at: sql<string>`case when sign_in_failures.window_started_at > ${windowStartAfter} then sign_in_failures.window_started_at else ${now} end`,
      }),
    )
    .returning(['failures', 'window_started_at as windowStartedAt'])
    .executeTakeFirstOrThrow();
}

/** Gives one counted attempt back (a sign-in that succeeded is no failure). */
export async function uncountAttempt(db: Db, scope: string): Promise<void> {
  await db.updateTable('sign_in_failures').set({ failures: sql<number>`failures - 1` }).where('scope', '=', scope).where('failures', '>', 0).execute();
}

/** Forgets the attempts of a scope (a successful sign-in clears its e-mail's counter). */
export async function clearFailures(db: Db, scope: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('scope', '=', scope).execute();
}
