/** What every route plugin is given. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../store/schema.js';
import type { ContentCaches } from '../../domain/shared/content-caches.js';

export interface RouteOptions {
  db: Db;
  /** the reads this app keeps per content version (domain/shared/content-caches.ts) */
  caches: ContentCaches;
}

export type RoutePlugin = FastifyPluginAsyncTypebox<RouteOptions>;

/** The OpenAPI security requirement of authenticated routes. */
export const bearer = [{ bearer_api_key: [] }];

/** The OpenAPI security requirement of routes made with the web application's session cookie only. */
export const webSession = [{ web_session: [] }];
