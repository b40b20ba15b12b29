/**
 * API keys: `tolk_` + 256 random bits. Only a SHA-256 of the secret is stored; a fast hash is
 * right here because the secret has full entropy (no dictionary to guess from), and it lets the
 * lookup be one indexed equality.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { notFound, validationError } from '../../errors.js';
import { findActiveKeyByHash, insertApiKey, listLiveKeysOfUser, revokeApiKey, touchApiKey } from '../../store/repositories/users.js';
import { findKeyAndCountRequest, type ProjectTarget } from '../../store/repositories/usage.js';
import type { Db } from '../../store/schema.js';
import { newId, nowIso } from '../shared/ids.js';
import type { Principal } from '../access/project-access.js';

const KEY_PREFIX = 'tolk_';
/** How much of the secret may be shown later to recognise a key: the prefix and 6 random characters. */
const DISPLAY_LENGTH = KEY_PREFIX.length + 6;

/** The stored form of a secret, and what a presented one is looked up by: SHA-256, hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export interface CreatedKey {
  id: string;
  apiKey: string;
}

/** Stores a new key and returns it as its owner sees it, with the secret (the only time it is available). */
async function storeNewKey(db: Db, userId: string, name: string, expiresAt: string | null): Promise<KeyView & { secret: string }> {
  const secret = KEY_PREFIX + randomBytes(32).toString('base64url');
  const key = { id: newId(), name, prefix: secret.slice(0, DISPLAY_LENGTH), createdAt: nowIso(), lastUsedAt: null, expiresAt };
  await insertApiKey(db, {
    id: key.id,
    user_id: userId,
    name,
    prefix: key.prefix,
    secret_hash: hashSecret(secret),
    created_at: key.createdAt,
    expires_at: expiresAt,
  });
  return { ...key, secret };
}

/** Creates a key for the user and returns its secret, the only time it is ever available. */
export async function createApiKey(db: Db, userId: string, name: string, expiresAt: string | null = null): Promise<CreatedKey> {
  const { id, secret } = await storeNewKey(db, userId, name, expiresAt);
  return { id, apiKey: secret };
}

/** The hash to look a presented secret up by, or null when it cannot be a key at all. */
const lookupHash = (secret: string) => (secret.startsWith(KEY_PREFIX) && secret.length <= 200 ? hashSecret(secret) : null);

/** The caller of a key found by `presented`, after a last constant-time check; null when none was found. */
async function principalOfKey(db: Db, presented: string, found: FoundKey | undefined): Promise<Principal | null> {
  // The index lookup already matched; comparing again in constant time keeps any
  // byte-by-byte comparison out of the decision.
  if (!found || !timingSafeEqual(Buffer.from(found.secretHash, 'hex'), Buffer.from(presented, 'hex'))) return null;
  await noteUse(db, found.keyId, found.lastUsedAt);
  return { userId: found.userId, dailyQuota: Number(found.dailyQuota), authenticatedBy: 'apiKey', apiKeyId: found.keyId };
}

interface FoundKey {
  keyId: string;
  secretHash: string;
  lastUsedAt: string | null;
  userId: string;
  dailyQuota: number | string;
}

/** The caller a presented secret stands for, or null when it is unknown, revoked or expired. */
export async function authenticateKey(db: Db, secret: string): Promise<Principal | null> {
  const presented = lookupHash(secret);
  return presented === null ? null : principalOfKey(db, presented, await findActiveKeyByHash(db, presented, nowIso()));
}

/**
 * authenticateKey and, in the same round trip, one request counted against the caller's quota of
 * `day` (PostgreSQL: store/repositories/usage.ts) and, given the request's `target`, its project as
 * the user sees it. `count` is the day's count with this request, or null when the quota was used up
 * (nothing counted). Null for an unknown key: nothing counted either.
 */
export async function authenticateKeyCounting(
  db: Db,
  secret: string,
  day: string,
  target?: ProjectTarget,
): Promise<{ principal: Principal; count: number | null } | null> {
  const presented = lookupHash(secret);
  if (presented === null) return null;
  const found = await findKeyAndCountRequest(db, presented, nowIso(), day, target);
  const principal = await principalOfKey(db, presented, found);
  if (!principal) return null;
  // The access check of this request then needs no query of its own (project-access.ts).
  if (found!.project) principal.prefetchedProject = found!.project;
  return { principal, count: found!.counted };
}

/** "Last used" is kept to the minute: one write a minute per busy key instead of one per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

async function noteUse(db: Db, keyId: string, lastUsedAt: string | null): Promise<void> {
  const now = Date.now();
  if (lastUsedAt !== null && now - Date.parse(lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
  await touchApiKey(db, keyId, new Date(now).toISOString());
}

/** A key as its owner sees it later: never the secret. */
export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

/** The caller's live keys, newest first. */
export async function listKeys(db: Db, principal: Principal): Promise<KeyView[]> {
  return listLiveKeysOfUser(db, principal.userId, nowIso());
}

/** Makes a key for the caller (web settings); the secret is in this answer only. */
export async function createKeyForUser(
  db: Db,
  principal: Principal,
  input: { name: string; expiresAt?: string | null | undefined },
): Promise<KeyView & { secret: string }> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : null;
  if (expiresAt !== null && expiresAt <= nowIso()) throw validationError('expiresAt must be in the future', '/body/expiresAt');
  return storeNewKey(db, principal.userId, input.name.trim(), expiresAt);
}

/** Revokes one of the caller's own keys; another user's key is "not found" (no existence leak). */
export async function revokeOwnKey(db: Db, principal: Principal, keyId: string): Promise<void> {
  if (!(await revokeApiKey(db, keyId, nowIso(), principal.userId))) throw notFound('API key');
}

/** Revokes a key; false when no live key has this id. */
export async function revokeKey(db: Db, keyId: string): Promise<boolean> {
  return revokeApiKey(db, keyId, nowIso());
}
