/** Users and their API keys. */
import type { Db, UserRow, ApiKeyRow } from '../schema.js';
import { prepared } from '../prepared.js';

export interface NewUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: string;
  timezone: string;
  dailyQuota: number;
  memberLimit: number;
  createdAt: string;
  /** null: the user signs in with API keys only until a password is set */
  passwordHash?: string | null;
  /** 'admin' (`tolk users create`: an administrator vouches for the address) or 'sign-up' */
  createdBy: 'admin' | 'sign-up';
}

/** Inserts a user; a taken e-mail surfaces as a unique violation. */
export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      email_key: user.email.toLowerCase(),
      first_name: user.firstName,
      last_name: user.lastName,
      locale: user.locale,
      timezone: user.timezone,
      daily_quota: user.dailyQuota,
      member_limit: user.memberLimit,
      password_hash: user.passwordHash ?? null,
      created_at: user.createdAt,
      created_by: user.createdBy,
      email_verified_at: null,
    })
    .execute();
}

/** The user with this id, if any. */
export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The names of these users (those whose rows are still there). */
export async function findUserNames(db: Db, ids: readonly string[]): Promise<{ id: string; first_name: string; last_name: string }[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', ids).execute();
}

/** The user with this e-mail (case-insensitive), if any. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email_key', '=', email.toLowerCase()).executeTakeFirst();
}

/** Stores a new key (its hash only). */
export async function insertApiKey(db: Db, key: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>): Promise<void> {
  await db.insertInto('api_keys').values({ ...key, last_used_at: null, revoked_at: null }).execute();
}

/** The live key with this secret hash joined with its owner, or undefined. */
export async function findActiveKeyByHash(db: Db, secretHash: string, now: string) {
  const [row] = (await unrevokedKeyQuery(db, secretHash)).rows;
  // Expiry is compared here, not in the SQL, so that the query's result can be kept until the next
  // write (prepared.ts); ISO 8601 UTC texts compare as the SQL compared them.
  if (!row || (row.expiresAt !== null && row.expiresAt <= now)) return undefined;
  return row;
}

// Every API request runs this first: compiled once.
const unrevokedKeyQuery = prepared(
  1,
  (db, secretHash: string) =>
    db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select([
        'api_keys.id as keyId',
        'api_keys.secret_hash as secretHash',
        'api_keys.last_used_at as lastUsedAt',
        'users.id as userId',
        'users.daily_quota as dailyQuota',
        'api_keys.expires_at as expiresAt',
      ])
      .where('api_keys.secret_hash', '=', secretHash)
      .where('api_keys.revoked_at', 'is', null),
  { keptUntilWrite: true },
);

/** Marks a key revoked (only if it is `userId`'s, when given); returns false when no such live key exists. */
export async function revokeApiKey(db: Db, id: string, now: string, userId?: string): Promise<boolean> {
  let query = db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every live key of a user (a password change that asks for it). */
export async function revokeKeysOfUser(db: Db, userId: string, now: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/** Records that a key was used (the caller limits how often). */
export async function touchApiKey(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}

/** The live keys of a user, newest first (never a secret or its hash). */
export async function listLiveKeysOfUser(db: Db, userId: string, now: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'prefix', 'created_at as createdAt', 'last_used_at as lastUsedAt', 'expires_at as expiresAt'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Replaces a user's password hash. */
export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

export interface ProfileChanges {
  first_name?: string;
  last_name?: string;
  locale?: string;
  timezone?: string;
}

/** Changes a user's profile fields. */
export async function updateUserProfile(db: Db, userId: string, changes: ProfileChanges): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

/** Stores a verification link's token hash for the user, replacing the user's earlier links. */
export async function replaceEmailVerification(db: Db, userId: string, tokenHash: string, createdAt: string, expiresAt: string): Promise<void> {
  await db.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
  await db.insertInto('email_verifications').values({ token_hash: tokenHash, user_id: userId, created_at: createdAt, expires_at: expiresAt }).execute();
}

/** When the user's live verification link was made, if there is one. */
export async function lastEmailVerificationAt(db: Db, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('email_verifications').select('created_at').where('user_id', '=', userId).orderBy('created_at', 'desc').executeTakeFirst();
  return row?.created_at;
}

/**
 * Uses up the verification link with this token hash, if it is still live: marks its user's address
 * verified and returns the user's id; undefined for an unknown, used or expired link.
 */
export async function consumeEmailVerification(db: Db, tokenHash: string, now: string): Promise<string | undefined> {
  const link = await db.deleteFrom('email_verifications').where('token_hash', '=', tokenHash).returning(['user_id', 'expires_at']).executeTakeFirst();
  if (!link || link.expires_at <= now) return undefined;
  await db.updateTable('users').set({ email_verified_at: now }).where('id', '=', link.user_id).where('email_verified_at', 'is', null).execute();
  return link.user_id;
}
