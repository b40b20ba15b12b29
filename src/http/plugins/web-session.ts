/**
 * The web application's cookie and the two checks every state change made with it must pass: a
 * same-origin `Origin` header and the session's CSRF token (contract: 403 ERR_FORBIDDEN otherwise).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDLE_LIFETIME_MS, isValidCsrfToken, type LiveSession } from '../../domain/accounts/web-sessions.js';
import { forbidden } from '../../errors.js';

export const SESSION_COOKIE = 'tolk_session';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether the request may change state (everything but GET, HEAD and OPTIONS). */
export const changesState = (request: FastifyRequest) => !SAFE_METHODS.has(request.method);

/** This server's own origin as the browser sees it (X-Forwarded-* count only with TRUST_PROXY=true). */
const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/**
 * Refuses a request whose Origin names another site. `required`: a request made with the session
 * cookie must name one (browsers send Origin with every state-changing fetch); a sign-in from
 * curl, without cookie or Origin, is not a cross-site request.
 */
export function checkOrigin(request: FastifyRequest, required: boolean): void {
  const origin = request.headers.origin;
  if (origin === undefined && !required) return;
  if (origin !== ownOrigin(request)) throw forbidden('the request must come from this site (Origin header)');
}

/** The Origin and CSRF checks of a state change made with a session. */
export function checkSessionWrite(request: FastifyRequest, session: LiveSession): void {
  checkOrigin(request, true);
  const token = request.headers[CSRF_HEADER];
  if (!isValidCsrfToken(session, typeof token === 'string' ? token : undefined)) {
    throw forbidden(`a state change made with the session cookie needs the session's CSRF token in the ${CSRF_HEADER} header`);
  }
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure when the request came over HTTPS. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, cookieSecret: string): void {
  reply.setCookie(SESSION_COOKIE, cookieSecret, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: IDLE_LIFETIME_MS / 1000,
  });
}

/** Tells the browser to drop the session cookie. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
}
