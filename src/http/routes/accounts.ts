/**
 * The web application's account routes. Public: the session state, sign-up and sign-in. Session
 * only: sign-out and password change. PATCH /info and GET /usage take a key or a session, like GET /info.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { changePassword, signIn, signUp, updateProfile, type SignedIn as SignedInResult } from '../../domain/accounts/account-use-cases.js';
import type { MailSetup } from '../../domain/accounts/email-verification.js';
import { csrfTokenFor, endSession, resumeSession } from '../../domain/accounts/web-sessions.js';
import { getProfile } from '../../domain/users/create-user.js';
import { quotaUsage } from '../../domain/quota/daily-quota.js';
import { forbidden } from '../../errors.js';
import type { Db } from '../../store/schema.js';
import { principalOf, webSessionOf } from '../plugins/auth.js';
import { checkOrigin, clearSessionCookie, sessionCookieOf, setSessionCookie } from '../plugins/web-session.js';
import { errors, NoContent, publicErrors } from '../schemas/common.js';
import { ChangePasswordBody, SessionState, SignedIn, SignInBody, SignUpBody, UpdateProfileBody, Usage } from '../schemas/accounts.js';
import { Info } from '../schemas/metadata.js';
import { bearer, webSession, type RoutePlugin } from './route-options.js';

const tags = ['accounts'];

/** Public: who is signed in, sign-up (unless closed) and sign-in (register where limitPublicBodies applies). */
export function publicAccountRoutes(db: Db, signUpOpen: boolean, mail?: MailSetup): FastifyPluginAsyncTypebox {
  return async (app) => {
    const signedIn = (result: SignedInResult, request: Parameters<typeof setSessionCookie>[0], reply: Parameters<typeof setSessionCookie>[1]) => {
      setSessionCookie(request, reply, result.cookieSecret);
      return { user: result.user, csrfToken: result.csrfToken };
    };

    app.get('/auth/session', { schema: { tags, response: { 200: SessionState, ...publicErrors() } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const cookie = sessionCookieOf(request);
      const session = cookie === undefined ? null : await resumeSession(db, cookie);
      if (!session) return { user: null, csrfToken: null, signUpOpen };
      return { user: await getProfile(db, session.principal), csrfToken: csrfTokenFor(session), signUpOpen };
    });

    app.post(
      '/auth/sign-up',
      { schema: { tags, body: SignUpBody, response: { 201: SignedIn, ...publicErrors(400, 403, 409, 429) } } },
      async (request, reply) => {
        checkOrigin(request, false);
        if (!signUpOpen) throw forbidden('sign-up is closed on this server; ask an administrator for an account');
        const result = await signUp(db, { ...request.body, address: request.ip }, mail);
        return reply.code(201).send(signedIn(result, request, reply));
      },
    );

    app.post(
      '/auth/sign-in',
      { schema: { tags, body: SignInBody, response: { 200: SignedIn, ...publicErrors(400, 401, 403, 429) } } },
      async (request, reply) => {
        checkOrigin(request, false);
        const result = await signIn(db, { ...request.body, address: request.ip });
        return signedIn(result, request, reply);
      },
    );
  };
}

/** Sign-out and password change: made with a session only (register in a requireWebSession scope). */
export const sessionAccountRoutes: RoutePlugin = async (app, { db }) => {
  // Quota-free: a used-up quota must not keep anyone from signing out.
  const quotaFree = { quotaFree: true };
  app.post('/auth/sign-out', { config: quotaFree, schema: { tags, security: webSession, response: { 204: NoContent, ...errors(403) } } }, async (request, reply) => {
    await endSession(db, webSessionOf(request));
    clearSessionCookie(request, reply);
    return reply.code(204).send(null);
  });

  app.put(
    '/auth/password',
    {
      schema: {
        tags,
        security: webSession,
        description:
          'Changes the password (the current one is checked; past a few wrong ones 429 with Retry-After, as for sign-in), ' +
          "ends the user's other sessions and, with revokeApiKeys: true, revokes all the user's API keys.",
        body: ChangePasswordBody,
        response: { 204: NoContent, ...errors(400, 403) },
      },
    },
    async (request, reply) => {
      await changePassword(db, principalOf(request), webSessionOf(request), request.body);
      return reply.code(204).send(null);
    },
  );
};

/**
 * GET /usage: the caller's budget of the day, as the web app's settings show it. Quota-free: it must
 * answer once the quota is used up ("0 left, resets in 5 h"); it costs one indexed read, as a refused
 * request does. `usage` holds the daily counts (Store.usage).
 */
export function usageRoute(usage: Db): RoutePlugin {
  return async (app) => {
    app.get(
      '/usage',
      {
        config: { quotaFree: true },
        schema: {
          tags: ['metadata'],
          security: bearer,
          description: "The caller's daily quota and what is left of it today. Not counted itself, and answered past the quota too.",
          response: { 200: Usage, ...errors() },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return quotaUsage(usage, principalOf(request));
      },
    );
  };
}

/** PATCH /info: the caller's names, locale and time zone. */
export const profileRoute: RoutePlugin = async (app, { db }) => {
  app.patch('/info', { schema: { tags: ['metadata'], security: bearer, body: UpdateProfileBody, response: { 200: Info, ...errors(400, 404) } } }, (request) =>
    updateProfile(db, principalOf(request), request.body),
  );
};
