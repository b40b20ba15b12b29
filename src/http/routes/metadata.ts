/** GET /info (authenticated), GET /locales and GET /version (public). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { listLocales } from '../../locales/locale-catalog.js';
import { getProfile } from '../../domain/users/create-user.js';
import { principalOf } from '../plugins/auth.js';
import { errors, publicErrors } from '../schemas/common.js';
import { Info, Locale, Version } from '../schemas/metadata.js';
import { bearer, type RoutePlugin } from './route-options.js';

export const API_VERSION = '1.0.0';

/** The profile of the key's owner. */
export const infoRoute: RoutePlugin = async (app, { db }) => {
  app.get('/info', { schema: { tags: ['metadata'], security: bearer, response: { 200: Info, ...errors(404) } } }, (request) =>
    getProfile(db, principalOf(request)),
  );
};

/** The public metadata routes; `build` is the package version. */
export function publicMetadataRoutes(build: string): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/locales', { schema: { tags: ['metadata'], response: { 200: Type.Array(Locale), ...publicErrors() } } }, async (_request, reply) => {
      // The catalog never changes while the process runs: let clients and proxies keep it.
      reply.header('cache-control', 'public, max-age=86400');
      return listLocales() as Static<typeof Locale>[];
    });
    app.get('/version', { schema: { tags: ['metadata'], response: { 200: Version, ...publicErrors() } } }, async () => ({ version: API_VERSION, build }));
  };
}
