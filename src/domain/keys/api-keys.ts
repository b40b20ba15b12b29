/**
 * API keys: `tolk_` + 256 random bits. Only a SHA-256 of the secret is stored; a fast hash is
 * right here because the secret has full entropy (no dictionary to guess from), and it lets the
 * lookup be one indexed equality.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { findActiveKeyByHash, insertApiKey, revokeApiKey } from '../../store/repositories/users.js';
import type { Db } from '../../store/schema.js';
import { newId, nowIso } from '../shared/ids.js';
import type { Principal } from '../access/project-access.js';

const KEY_PREFIX = 'tolk_';
/** How much of the secret may be shown later to recognise a key: the prefix and 6 random characters. */
const DISPLAY_LENGTH = KEY_PREFIX.length + 6;

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export interface CreatedKey {
  id: string;
  apiKey: string;
}

/** Creates a key for the user and returns its secret, the only time it is ever available. */
export async function createApiKey(db: Db, userId: string, name: string, expiresAt: string | null = null): Promise<CreatedKey> {
  const secret = KEY_PREFIX + randomBytes(32).toString('base64url');
  const id = newId();
  await insertApiKey(db, {
    id,
    user_id: userId,
    name,
    prefix: secret.slice(0, DISPLAY_LENGTH),
    secret_hash: hashSecret(secret),
    created_at: nowIso(),
    expires_at: expiresAt,
  });
  return { id, apiKey: secret };
}

/** The caller a presented secret stands for, or null when it is unknown, revoked or expired. */
export async function authenticateKey(db: Db, secret: string): Promise<Principal | null> {
  if (!secret.startsWith(KEY_PREFIX) || secret.length > 200) return null;
  const presented = hashSecret(secret);
  const found = await findActiveKeyByHash(db, presented, nowIso());
  // The index lookup already matched; comparing again in constant time keeps any
  // byte-by-byte comparison out of the decision.
  if (!found || !timingSafeEqual(Buffer.from(found.secretHash, 'hex'), Buffer.from(presented, 'hex'))) return null;
  return { userId: found.userId, dailyQuota: Number(found.dailyQuota) };
}

/** Revokes a key; false when no live key has this id. */
export async function revokeKey(db: Db, keyId: string): Promise<boolean> {
  return revokeApiKey(db, keyId, nowIso());
}
