/**
 * The web application's cookie and the two checks every state change made with it must pass: a
 * same-origin `Origin` header and the session's CSRF token (contract: 403 ERR_FORBIDDEN otherwise).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDLE_LIFETIME_MS, isValidCsrfToken, type LiveSession } from '../../domain/accounts/web-sessions.js';
import { forbidden } from '../../errors.js';

export const SESSION_COOKIE = 'tolk_session';
/**
 * The cookie's name over HTTPS. The `__Host-` prefix makes browsers take it only when it is Secure,
 * has Path=/ and no Domain: a neighbouring subdomain or a plain-HTTP page cannot plant one.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
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

const overHttps = (request: FastifyRequest) => request.protocol === 'https';

/**
 * The cookie's name for this request's scheme. Over HTTPS only the `__Host-` name is read: a plain
 * `tolk_session` there may have been planted (a subdomain, an HTTP page of the same host).
 */
const cookieName = (request: FastifyRequest) => (overHttps(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/**
 * The session cookie's value, if the request has one. Parsed here, only where a session can matter:
 * @fastify/cookie's own per-request hook is off (app.ts), so API-key requests never pay for it.
 */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header === undefined ? undefined : request.server.parseCookie(header)[cookieName(request)];
}

/** The cookie's attributes: HttpOnly, SameSite=Lax, Path=/ (no Domain), Secure when the request came over HTTPS. */
const cookieOptions = (request: FastifyRequest) => ({ path: '/', httpOnly: true, sameSite: 'lax', secure: overHttps(request) }) as const;

/**
 * Sets the session cookie. Written with @fastify/cookie's serializer straight into the header: its
 * reply.setCookie needs the per-request hooks this app leaves off.
 */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, cookieSecret: string): void {
  reply.header('set-cookie', request.server.serializeCookie(cookieName(request), cookieSecret, { ...cookieOptions(request), maxAge: IDLE_LIFETIME_MS / 1000 }));
}

/** Tells the browser to drop the session cookie. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', request.server.serializeCookie(cookieName(request), '', { ...cookieOptions(request), maxAge: 0, expires: new Date(0) }));
}
