/** The caller's API keys, managed from the web application's settings (session only). */
import { Type } from 'typebox';
import { createKeyForUser, listKeys, revokeOwnKey } from '../../domain/keys/api-keys.js';
import { principalOf } from '../plugins/auth.js';
import { ApiKey, CreateApiKeyBody, CreatedApiKey } from '../schemas/accounts.js';
import { errors, IdParams, NoContent } from '../schemas/common.js';
import { webSession, type RoutePlugin } from './route-options.js';

const tags = ['api keys'];

export const apiKeyRoutes: RoutePlugin = async (app, { db }) => {
  app.get('/keys', { schema: { tags, security: webSession, response: { 200: Type.Array(ApiKey), ...errors(403) } } }, (request) =>
    listKeys(db, principalOf(request)),
  );

  app.post(
    '/keys',
    { schema: { tags, security: webSession, body: CreateApiKeyBody, response: { 201: CreatedApiKey, ...errors(400, 403) } } },
    async (request, reply) => {
      // The secret must not linger in any cache.
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await createKeyForUser(db, principalOf(request), request.body));
    },
  );

  app.delete(
    '/keys/:id',
    // Quota-free: a leaked key that used up its user's quota must not keep its owner from revoking it.
    { config: { quotaFree: true }, schema: { tags, security: webSession, params: IdParams, response: { 204: NoContent, ...errors(403, 404) } } },
    async (request, reply) => {
      await revokeOwnKey(db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
