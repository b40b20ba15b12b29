/** The daily quota: every authenticated request (API key or web session) counts against its user's UTC day. */
import { AppError } from '../../errors.js';
import { countOf, countRequest } from '../../store/repositories/usage.js';
import type { Db } from '../../store/schema.js';
import type { Principal } from '../access/project-access.js';

export interface QuotaState {
  limit: number;
  remaining: number;
  /** seconds until the count resets, at the next UTC midnight */
  resetSeconds: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of `now` and the seconds left in it (at least 1, so clients never retry at 0). */
function dayOf(now: Date): { day: string; resetSeconds: number } {
  const nextMidnight = Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  return { day: now.toISOString().slice(0, 10), resetSeconds: Math.max(1, Math.ceil((nextMidnight - now.getTime()) / 1000)) };
}

/** The RateLimit-* headers of a counted response (IETF draft names, as the contract gives them). */
export function rateLimitHeaders(state: QuotaState): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
  };
}

/** The UTC day a request made now is counted on (YYYY-MM-DD). */
export const quotaDay = (now = new Date()) => dayOf(now).day;

/** Counts one request, or refuses it with 429 ERR_QUOTA_EXCEEDED (with Retry-After) once the day's quota is used. */
export async function chargeRequest(db: Db, principal: Principal, now = new Date()): Promise<QuotaState> {
  const count = await countRequest(db, principal.userId, dayOf(now).day, principal.dailyQuota ?? 0);
  return quotaStateAfter(principal, count, now);
}

/**
 * The quota state after a request was counted (`count`: the day's count with it), or the 429 when it
 * could not be (`count` null: the quota was used up).
 */
export function quotaStateAfter(principal: Principal, count: number | null, now = new Date()): QuotaState {
  const limit = principal.dailyQuota ?? 0;
  const { resetSeconds } = dayOf(now);
  if (count === null) {
    const state = { limit, remaining: 0, resetSeconds };
    throw new AppError('ERR_QUOTA_EXCEEDED', `the daily quota of ${limit} requests is used up; it resets at 00:00 UTC`, undefined, {
      ...rateLimitHeaders(state),
      'retry-after': String(resetSeconds),
    });
  }
  return { limit, remaining: limit - count, resetSeconds };
}

/** What the user has used of today's quota and what is left (GET /usage; reading it counts nothing). */
export interface QuotaUsage {
  limit: number;
  used: number;
  remaining: number;
  /** seconds until the count resets, at the next UTC midnight */
  resetsInSeconds: number;
}

/** The caller's budget of the current UTC day, as the web app's settings show it. */
export async function quotaUsage(db: Db, principal: Principal, now = new Date()): Promise<QuotaUsage> {
  const limit = principal.dailyQuota ?? 0;
  const { day, resetSeconds } = dayOf(now);
  // A quota lowered during the day may sit below the day's count: nothing is left then, not less.
  const used = Math.min(limit, await countOf(db, principal.userId, day));
  return { limit, used, remaining: limit - used, resetsInSeconds: resetSeconds };
}
