/**
 * The OpenAPI 3.1 document, generated from the routes' own TypeBox schemas (so validation,
 * serialization and documentation cannot drift apart), and the Swagger UI that shows it at /docs.
 * Register before any route: @fastify/swagger collects routes as they are added.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { API_VERSION } from '../routes/metadata.js';
import { errorResponse } from '../schemas/common.js';

/** Where the API is mounted; the document's server, and what its paths are relative to. */
export const API_PREFIX = '/api/v1';
const DOCS_PREFIX = '/docs';

/**
 * The security headers forbid everything (the API serves no pages). The docs page is the one page:
 * it may load its own scripts, styles and images and call the API, still from this origin only. The UI
 * uses no inline scripts, so none are allowed.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const BEARER_API_KEY = {
  type: 'http',
  scheme: 'bearer',
  description: 'An API key of the user, sent as `Authorization: Bearer <API_KEY>` (keys start with `tolk_`).',
} as const;

const WEB_SESSION = {
  type: 'apiKey',
  in: 'cookie',
  name: 'tolk_session',
  description:
    'The web application\'s session (POST /auth/sign-in). Every authenticated route also accepts it; state changes made with it need the x-csrf-token header and a same-origin Origin.',
} as const;

interface ObjectSchema {
  properties?: Record<string, { default?: unknown }>;
  required?: string[];
}

/** Validation fills in a query field that has a default, so clients need not send it. */
function withDefaultsOptional(querystring: unknown): unknown {
  const { properties = {}, required = [] } = querystring as ObjectSchema;
  return { ...(querystring as object), required: required.filter((name) => properties[name]?.default === undefined) };
}

/**
 * A route as the document shows it. Only the API is documented: the health probes are for
 * orchestrators, outside /api/v1 and its error contract, and the docs page documents nothing.
 * Fastify's body parser answers 413 and 415 before any route code runs, so every route with a body
 * can answer them (described as the route describes them, else the usual way); successes without a
 * description of their own are just "OK".
 */
function documentedRoute({ schema, url }: { schema: FastifySchema; url: string }): { schema: FastifySchema; url: string } {
  if (!url.startsWith(`${API_PREFIX}/`)) return { schema: { ...schema, hide: true }, url };
  const response: Record<string, unknown> = {};
  for (const [status, value] of Object.entries(schema.response ?? {})) {
    response[status] = (value as { description?: string }).description ? value : { ...value, description: 'OK' };
  }
  if (schema.body) for (const status of [413, 415]) response[status] ??= errorResponse(status);
  const querystring = schema.querystring ? withDefaultsOptional(schema.querystring) : undefined;
  return { schema: { ...schema, response, ...(querystring ? { querystring } : {}) }, url };
}

/** Adds the document generator (`app.swagger()`) and the docs page; `build` is the package version. */
export async function installOpenApi(app: FastifyInstance, build: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'tolk localization content API',
        version: API_VERSION,
        description: `Projects, groups, entries, translations and exports (server build ${build}).`,
      },
      servers: [{ url: API_PREFIX }],
      components: { securitySchemes: { bearer_api_key: BEARER_API_KEY, web_session: WEB_SESSION } },
    },
    // Shared schemas (ErrorBody) keep their names instead of becoming def-0, def-1, ….
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: documentedRoute,
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: DOCS_CSP });
}
