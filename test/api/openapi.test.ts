/**
 * The OpenAPI 3.1 document at /api/v1/openapi.json: a valid document, complete (every API route,
 * its security and error statuses) and true (real answers of every operation match it); and the
 * interactive docs at /docs.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DEEP_LINKS } from '../../src/http/plugins/web-app.js';
import { DIALECTS } from '../helpers/dialects.js';
import { operationsOf, ResponseConformance, type OpenApiDocument } from '../helpers/openapi-conformance.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { driveSampleWorld } from './openapi-sample-world.js';

const API_PREFIX = '/api/v1';
const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** `METHOD /url` of every route of the app, from Fastify's route tree (HEADs are its automatic twins of GETs). */
function routesOf(app: FastifyInstance): string[] {
  const parents: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!node) continue;
    const depth = (node[1] ?? '').length / 4;
    parents.length = depth;
    const url = (parents.at(-1) ?? '') + node[2];
    parents.push(url);
    const methods = (node[3] ?? '').split(', ').filter((method) => method !== 'HEAD' && method !== '-' && method !== '');
    routes.push(...methods.map((method) => `${method} ${url}`));
  }
  return routes;
}

const asTemplate = (url: string) => url.slice(API_PREFIX.length).replace(/:(\w+)/g, '{$1}');
/** A request path for a template: every id is one that exists nowhere. */
const samplePath = (template: string) => template.replace(/\{\w+\}/g, 'no-such-id');

const ERROR_BODY_REF = { $ref: '#/components/schemas/ErrorBody' };

describe.each(DIALECTS)('the OpenAPI document on %s', (dialect) => {
  let server: TestServer;
  let document: OpenApiDocument;
  let routes: string[];

  beforeAll(async () => {
    // A mailer that drops what it is given: the routes' answers are what this file checks (the mail
    // itself goes over real SMTP in test/access/invitations-proof.test.ts).
    server = await startServer(dialect, { publicUrl: 'https://tolk.example.test', mailer: { send: async () => {} } });
    const response = await server.api('GET', '/openapi.json');
    expect(response.status, response.text).toBe(200);
    document = response.body;
    // A second app on the same store, never listening: only its route table is read.
    const app = await buildApp({ store: server.store, logLevel: 'silent' });
    await app.ready();
    routes = routesOf(app);
    await app.close();
  });
  afterAll(() => server?.close());

  it('is served without a key and without counting against a quota', async () => {
    const response = await server.api('GET', '/openapi.json');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('ratelimit-limit')).toBeNull();
  });

  it('is a valid OpenAPI 3.1 document whose server is the API prefix and whose version is GET /version\'s', async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    expect((document as any).servers).toEqual([{ url: API_PREFIX }]);
    expect((document as any).info.version).toBe((await server.api('GET', '/version')).body.version);
  });

  it('has an operation for every API route, and nothing else; only the health probes, the metrics and the docs page are left out', () => {
    const api = routes.filter((route) => route.split(' ')[1]!.startsWith(`${API_PREFIX}/`));
    const left = routes.filter((route) => !api.includes(route)).map((route) => route.split(' ')[1]!);
    // The web application's pages and built files are not API operations.
    const webApp = (url: string) => DEEP_LINKS.includes(url) || url.endsWith('*') || existsSync(join(WEB_DIST, url));
    expect(left.filter((url) => !url.startsWith('/docs') && !webApp(url)).sort()).toEqual(['/healthz', '/metrics', '/readyz']);
    const documented = api.map((route) => {
      const [method, url] = route.split(' ');
      return `${method} ${asTemplate(url!)}`;
    });
    expect(operationsOf(document).sort()).toEqual(documented.sort());
    expect(documented.length).toBeGreaterThanOrEqual(29);
  });

  it('declares bearer_api_key exactly on the operations that answer 401 without a key, and the error body on every error status', async () => {
    expect(document.components.securitySchemes.bearer_api_key).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.schemas.ErrorBody).toMatchObject({
      type: 'object',
      required: ['statusCode', 'code', 'message'],
      properties: { statusCode: { type: 'integer' }, code: { type: 'string' }, message: { type: 'string' }, details: { type: 'array' } },
    });
    for (const operation of operationsOf(document)) {
      const [method, template] = operation.split(' ') as [string, string];
      const documented = document.paths[template]![method.toLowerCase() as 'get']!;
      const withoutKey = await server.api(method, samplePath(template), method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      const authenticated = withoutKey.status === 401;
      // Routes of the web application's settings take its session only; every other one a key (or a session).
      const security = authenticated ? [template.startsWith('/keys') || template.startsWith('/auth/') ? { web_session: [] } : { bearer_api_key: [] }] : undefined;
      expect(documented.security, operation).toEqual(security);
      const errorStatuses = Object.keys(documented.responses).filter((status) => Number(status) >= 400);
      expect(errorStatuses, operation).toEqual(expect.arrayContaining(authenticated ? ['401', '429', '500'] : ['500']));
      for (const status of errorStatuses) {
        expect(documented.responses[status]!.content, `${operation} ${status}`).toEqual({ 'application/json': { schema: ERROR_BODY_REF } });
        expect(documented.responses[status]!.description, `${operation} ${status}`).not.toBe('Default Response');
      }
    }
  });

  it("describes the import's own 413 and 415 (IMPORT_MAX_BYTES, each format's media type), not the other routes' 1 MiB of JSON", () => {
    const responses = document.paths['/projects/{id}/import']!.post!.responses;
    expect(responses['413']!.description).toBe('the body is over IMPORT_MAX_BYTES (default 64 MiB; 67,108,864 bytes on this server) (ERR_PAYLOAD_TOO_LARGE)');
    expect(responses['415']!.description).toBe(
      "the Content-Type is not the format's: json and vue-i18n take the JSON document as application/json, i18next and flutter the .tar.gz archive as application/gzip (ERR_UNSUPPORTED_MEDIA_TYPE)",
    );
    // the other routes with a body keep the usual meaning
    expect(document.paths['/projects']!.post!.responses['413']!.description).toMatch(/over 1 MiB/);
  });

  it('describes what every operation really answers: a scripted world of successes and errors all validate against it', async () => {
    const conformance = new ResponseConformance(document);
    const problems: string[] = [];
    await driveSampleWorld(server, async (method, path, status, options) => {
      const response = await server.api(method, path, options);
      expect(response.status, `${method} ${path}: ${response.text.slice(0, 300)}`).toBe(status);
      problems.push(...conformance.problems(method, path, response));
      return response;
    });
    // Every operation without a key: the 401s (and the public answers) must match too.
    for (const operation of operationsOf(document)) {
      const [method, template] = operation.split(' ') as [string, string];
      problems.push(...conformance.problems(method, samplePath(template), await server.api(method, samplePath(template))));
    }
    expect(problems).toEqual([]);
    expect(conformance.withoutSuccess()).toEqual([]);
  });

  it('serves the interactive docs at /docs as HTML whose own scripts the page policy allows, the API keeping its strict one', async () => {
    const origin = server.baseUrl.slice(0, -API_PREFIX.length);
    const page = await fetch(`${origin}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<div id="swagger-ui">');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const served = await fetch(new URL(script, `${origin}/docs`));
      expect(served.status, script).toBe(200);
      expect(served.headers.get('content-type'), script).toMatch(/javascript/);
    }
    const spec = await fetch(`${origin}/docs/json`);
    expect(await spec.json()).toEqual(document);
    const api = await server.api('GET', '/version');
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
