/**
 * Authentication for the scope it is registered in: a bearer API key (spec section 5) or, without an
 * Authorization header, the web application's session cookie (contract "Web application").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, forbidden } from '../../errors.js';
import type { Principal } from '../../domain/access/project-access.js';
import { resumeSession, type LiveSession } from '../../domain/accounts/web-sessions.js';
import { authenticateKey, authenticateKeyCounting } from '../../domain/keys/api-keys.js';
import { quotaDay, quotaStateAfter, rateLimitHeaders } from '../../domain/quota/daily-quota.js';
import { UNSTORABLE } from '../../domain/shared/storable-text.js';
import type { ProjectTarget } from '../../store/repositories/usage.js';
import type { Db } from '../../store/schema.js';
import { isDeferred, isQuotaFree } from './quota-rules.js';
import { changesState, checkSessionWrite, sessionCookieOf } from './web-session.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** the web session the request was made with, if any */
    webSession: LiveSession | null;
  }
}

const unauthorized = (message: string) =>
  new AppError('ERR_UNAUTHORIZED', message, undefined, { 'www-authenticate': 'Bearer realm="tolk"' });

/** The bearer token of the header, or an error saying what is wrong with it. */
function bearerToken(header: string): string {
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) throw unauthorized('the Authorization header must be "Bearer <key>"');
  return match[1];
}

/** `/projects/:id…`, `/groups/:id…`, `/entries/:id…`: routes about one project, found by their own id. */
const TARGETED_ROUTE = /\/(projects|groups|entries)\/:id(?:\/|$)/;

/**
 * Where the request's project is found, read from its route (`/api/v1/entries/:id` → the entry's
 * project), so the authentication's statement can read the access check's project as well. Reads
 * only (GET, HEAD): a request that writes may change the very membership it was authenticated with
 * (accepting an invitation, leaving), so its checks read the store as they go.
 */
function projectTargetOf(request: FastifyRequest): ProjectTarget | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const kind = TARGETED_ROUTE.exec(request.routeOptions.url ?? '')?.[1];
  const id = (request.params as { id?: unknown } | undefined)?.id;
  // What the store cannot hold (NUL, lone surrogates) is left to the route, which answers it as unknown.
  if (kind === undefined || typeof id !== 'string' || UNSTORABLE.test(id)) return undefined;
  return kind === 'projects' ? { projectId: id } : kind === 'groups' ? { groupId: id } : { entryId: id };
}

/**
 * The caller of a request: its API key if it sends one, else its session cookie. With `countingQuota`,
 * a key's request is counted against the daily quota in the same round trip as the key check (and
 * refused with 429 past it), unless its route counts it later itself or never (quota.ts). A session's
 * request is counted by meterRequests, after the CSRF check: a refused forged write costs no budget.
 */
async function authenticate(db: Db, request: FastifyRequest, reply: FastifyReply, countingQuota: boolean): Promise<Principal> {
  const header = request.headers.authorization;
  if (header !== undefined && countingQuota && !isDeferred(request) && !isQuotaFree(request)) {
    const now = new Date();
    const found = await authenticateKeyCounting(db, bearerToken(header), quotaDay(now), projectTargetOf(request));
    if (!found) throw unauthorized('the API key is invalid, revoked or expired');
    request.quotaCharged = true;
    reply.headers(rateLimitHeaders(quotaStateAfter(found.principal, found.count, now)));
    return found.principal;
  }
  if (header !== undefined) {
    const principal = await authenticateKey(db, bearerToken(header));
    if (!principal) throw unauthorized('the API key is invalid, revoked or expired');
    return principal;
  }
  const cookie = sessionCookieOf(request);
  if (cookie === undefined) throw unauthorized('an API key is required: send "Authorization: Bearer <key>"');
  const session = await resumeSession(db, cookie);
  if (!session) throw unauthorized('the session has ended; sign in again');
  if (changesState(request)) checkSessionWrite(request, session);
  request.webSession = session;
  return session.principal;
}

/**
 * Requires a valid key or session on every route registered in `scope` (and its children).
 * `countingQuota`: the daily counts are in `db` too (PostgreSQL), so a key's check and its request's
 * count go in one statement; register meterRequests after this either way.
 */
export function requireApiKey(scope: FastifyInstance, db: Db, { countingQuota = false } = {}): void {
  scope.addHook('onRequest', async (request, reply) => {
    request.principal = await authenticate(db, request, reply, countingQuota);
  });
}

/** Narrows a scope to web sessions: API keys may not manage keys or passwords (a leaked key must not mint more). */
export function requireWebSession(scope: FastifyInstance): void {
  scope.addHook('onRequest', async (request) => {
    if (!request.webSession) throw forbidden('this is done in the web application, signed in with your password');
  });
}

/** The caller of an authenticated route. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized('an API key is required');
  return request.principal;
}

/** The web session of a session-only route. */
export function webSessionOf(request: FastifyRequest): LiveSession {
  if (!request.webSession) throw forbidden('this needs a web session');
  return request.webSession;
}
