/**
 * Proving an e-mail address: following the mailed link (public: the token is the proof) and asking
 * for a new link (the web application's session, like the other settings).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { resendVerificationLink, verifyEmail, type MailSetup } from '../../domain/accounts/email-verification.js';
import type { Db } from '../../store/schema.js';
import { principalOf } from '../plugins/auth.js';
import { checkOrigin } from '../plugins/web-session.js';
import { errors, NoContent, publicErrors } from '../schemas/common.js';
import { webSession, type RoutePlugin } from './route-options.js';

const tags = ['accounts'];
const VerifyBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128, description: "the token of the mailed link's ?token=" }) }, { additionalProperties: false });

/** Public: POST /auth/verify-email {token}. */
export function publicVerificationRoutes(db: Db): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/auth/verify-email',
      { schema: { tags, description: "Follows an e-mail verification link: the token's account has proved its address", body: VerifyBody, response: { 204: NoContent, ...publicErrors(400, 403) } } },
      async (request, reply) => {
        checkOrigin(request, false);
        await verifyEmail(db, request.body.token);
        return reply.code(204).send(null);
      },
    );
  };
}

/** POST /auth/verify-email/resend: a new link to the caller's address (429 within a minute of the last one); register in a requireWebSession scope. */
export const resendVerificationRoute = (mail: MailSetup | undefined): RoutePlugin => async (app, { db }) => {
  app.post(
    '/auth/verify-email/resend',
    {
      schema: {
        tags,
        security: webSession,
        description: 'Mails the caller a new verification link (409 when the address is verified already or the server sends no mail)',
        response: { 204: NoContent, ...errors(403, 409) },
      },
    },
    async (request, reply) => {
      await resendVerificationLink(db, mail, principalOf(request));
      return reply.code(204).send(null);
    },
  );
};
