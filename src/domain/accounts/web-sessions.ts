/**
 * Web sessions: a random cookie secret whose sha256 names the row, and a per-session CSRF secret from
 * which @fastify/csrf makes and checks the tokens the web app sends with every state change.
 */
import Tokens from '@fastify/csrf';
import { createHash, randomBytes } from 'node:crypto';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOfUser,
  findLiveSession,
  insertSession,
  touchSession,
} from '../../store/repositories/sessions.js';
import type { Db } from '../../store/schema.js';
import type { Principal } from '../access/project-access.js';

/** A session ends after two weeks without use, and after 90 days whatever happens. */
export const IDLE_LIFETIME_MS = 14 * 24 * 3600_000;
const ABSOLUTE_LIFETIME_MS = 90 * 24 * 3600_000;
/** The idle expiry moves at most once an hour: one write an hour per browser, not one per request. */
const REFRESH_AFTER_MS = 3600_000;

const tokens = Tokens();

const hashOf = (cookieSecret: string) => createHash('sha256').update(cookieSecret, 'utf8').digest('hex');

export interface StartedSession {
  /** the cookie's value, known only to the browser */
  cookieSecret: string;
  csrfToken: string;
}

/** Signs a user in: stores a new session and returns the cookie value and a first CSRF token. */
export async function startSession(db: Db, userId: string): Promise<StartedSession> {
  const cookieSecret = randomBytes(32).toString('base64url');
  const csrfSecret = tokens.secretSync();
  const now = new Date();
  await deleteExpiredSessions(db, now.toISOString());
  await insertSession(db, {
    id_hash: hashOf(cookieSecret),
    user_id: userId,
    csrf_secret: csrfSecret,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: new Date(now.getTime() + IDLE_LIFETIME_MS).toISOString(),
  });
  return { cookieSecret, csrfToken: tokens.create(csrfSecret) };
}

export interface LiveSession {
  idHash: string;
  csrfSecret: string;
  principal: Principal;
}

/** The session a cookie stands for, or null when it is unknown or expired. */
export async function resumeSession(db: Db, cookieSecret: string): Promise<LiveSession | null> {
  if (cookieSecret.length > 100) return null;
  const now = Date.now();
  const found = await findLiveSession(db, hashOf(cookieSecret), new Date(now).toISOString());
  if (!found) return null;
  if (now - Date.parse(found.lastSeenAt) > REFRESH_AFTER_MS) {
    const expiresAt = Math.min(now + IDLE_LIFETIME_MS, Date.parse(found.createdAt) + ABSOLUTE_LIFETIME_MS);
    await touchSession(db, found.idHash, new Date(now).toISOString(), new Date(expiresAt).toISOString());
  }
  return { idHash: found.idHash, csrfSecret: found.csrfSecret, principal: { userId: found.userId, dailyQuota: Number(found.dailyQuota), authenticatedBy: 'session' } };
}

/** A fresh CSRF token for a session (each one differs; all verify). */
export function csrfTokenFor(session: LiveSession): string {
  return tokens.create(session.csrfSecret);
}

/** Whether a presented token was made for this session. */
export function isValidCsrfToken(session: LiveSession, token: string | undefined): boolean {
  return typeof token === 'string' && token.length < 200 && tokens.verify(session.csrfSecret, token);
}

/** Signs one browser out. */
export async function endSession(db: Db, session: LiveSession): Promise<void> {
  await deleteSession(db, session.idHash);
}

/** Signs out every browser of the user but `keep` (after a password change). */
export async function endOtherSessions(db: Db, userId: string, keep: LiveSession | null): Promise<void> {
  await deleteSessionsOfUser(db, userId, keep?.idHash ?? null);
}
