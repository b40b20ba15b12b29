import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listLocales } from '../../src/locales/locale-catalog.js';
import { getProfile } from '../../src/domain/users/create-user.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

const errorShape = (statusCode: number, code: string) => ({ statusCode, code, message: expect.any(String) });

describe.each(DIALECTS)('metadata, authentication and error bodies on %s', (dialect) => {
  let server: TestServer;
  let user: { id: string; email: string; apiKey: string };

  beforeAll(async () => {
    server = await startServer(dialect);
    user = await server.user();
  });
  afterAll(() => server?.close());

  it('serves GET /version publicly with the API and package versions', async () => {
    const response = await server.api('GET', '/version');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ version: '1.0.0', build: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('serves the full locale catalog publicly, with regions', async () => {
    const response = await server.api('GET', '/locales');
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(listLocales().length);
    expect(response.body.length).toBeGreaterThan(200);
    const portuguese = response.body.find((l: any) => l.code === 'pt');
    expect(portuguese.name).toBe('Portuguese');
    expect(portuguese.regions).toEqual(expect.arrayContaining([{ code: 'pt-BR', name: 'Portuguese (Brazil)' }]));
  });

  it('lists the locale tags with a script subtag that CLDR lists (zh-Hant, zh-Hans, sr-Latn, sr-Cyrl) under their language', async () => {
    const response = await server.api('GET', '/locales');
    expect(response.status).toBe(200);
    const regionsOf = (code: string) => response.body.find((l: any) => l.code === code)?.regions;
    expect(regionsOf('zh')).toEqual(expect.arrayContaining([{ code: 'zh-Hant', name: 'Chinese (Traditional)' }, { code: 'zh-Hans', name: 'Chinese (Simplified)' }]));
    expect(regionsOf('sr')).toEqual(expect.arrayContaining([{ code: 'sr-Latn', name: 'Serbian (Latin)' }, { code: 'sr-Cyrl', name: 'Serbian (Cyrillic)' }]));
  });

  it('answers GET /info with the key owner\'s profile', async () => {
    const response = await server.api('GET', '/info', { key: user.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: user.id,
      email: user.email,
      firstName: expect.any(String),
      lastName: expect.any(String),
      locale: 'en',
      timezone: 'UTC',
      emailVerified: false,
    });
  });

  it.each([
    ['no header', undefined],
    ['an unknown key', 'Bearer tolk_doesnotexist'],
    ['a key without the Bearer scheme', 'RAW'],
    ['Basic auth', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
  ])('refuses GET /info with %s: 401 ERR_UNAUTHORIZED', async (_label, authorization) => {
    const headers: Record<string, string> = authorization === 'RAW' ? { authorization: user.apiKey } : authorization ? { authorization } : {};
    const response = await server.api('GET', '/info', { headers });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(errorShape(401, 'ERR_UNAUTHORIZED'));
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('accepts the Bearer scheme in any case', async () => {
    const response = await server.api('GET', '/info', { headers: { authorization: `bearer ${user.apiKey}` } });
    expect(response.status).toBe(200);
  });

  it('revokes a deleted user\'s keys with the user (401), and the profile lookup says ERR_SETTINGS_PROFILE_USER_NOT_FOUND', async () => {
    const doomed = await server.user();
    // No API deletes users; removing the row directly stands in for an administrator's clean-up.
    await server.store.db.deleteFrom('users').where('id', '=', doomed.id).execute();
    expect((await server.api('GET', '/info', { key: doomed.apiKey })).status).toBe(401);
    // A key authenticated just before its user vanished reaches the lookup itself:
    await expect(getProfile(server.store.db, { userId: doomed.id })).rejects.toMatchObject({
      code: 'ERR_SETTINGS_PROFILE_USER_NOT_FOUND',
      statusCode: 404,
    });
  });

  it('answers unknown routes with 404 ERR_NOT_FOUND in the contract body', async () => {
    const response = await server.api('GET', '/nothing/here', { key: user.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorShape(404, 'ERR_NOT_FOUND'));
  });

  it('answers malformed JSON with 400 ERR_VALIDATION', async () => {
    const response = await server.api('POST', '/projects', { key: user.apiKey, rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorShape(400, 'ERR_VALIDATION'));
  });

  it('answers a body that is not JSON with 415 ERR_UNSUPPORTED_MEDIA_TYPE', async () => {
    const response = await server.api('POST', '/projects', { key: user.apiKey, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(415);
    expect(response.body).toEqual(errorShape(415, 'ERR_UNSUPPORTED_MEDIA_TYPE'));
  });

  it('answers a valid JSON body sent as text/plain with 415 ERR_UNSUPPORTED_MEDIA_TYPE, and writes nothing', async () => {
    const body = JSON.stringify({ name: 'Plain text', baseLanguage: 'en', translationLanguages: [] });
    const response = await server.api('POST', '/projects', { key: user.apiKey, rawBody: body, headers: { 'content-type': 'text/plain' } });
    expect(response.status, response.text).toBe(415);
    expect(response.body).toEqual(errorShape(415, 'ERR_UNSUPPORTED_MEDIA_TYPE'));
    const projects = await server.api('GET', '/projects', { key: user.apiKey });
    expect(projects.body.result.map((project: any) => project.name)).not.toContain('Plain text');
  });

  it('answers an over-long id like any unknown one (404 ERR_PROJECT_NOT_FOUND), and never echoes a whole URL', async () => {
    const longId = 'a'.repeat(10_000);
    const project = await server.api('GET', `/projects/${longId}`, { key: user.apiKey });
    expect(project.status, project.text.slice(0, 300)).toBe(404);
    expect(project.body).toEqual(errorShape(404, 'ERR_PROJECT_NOT_FOUND'));
    const exported = await server.api('GET', `/projects/${longId}/export/json`, { key: user.apiKey });
    expect(exported.body).toEqual(errorShape(404, 'ERR_PROJECT_NOT_FOUND'));
    const stray = await server.api('GET', `/no-such-route/${longId}`, { key: user.apiKey });
    expect(stray.status).toBe(404);
    for (const answer of [project, exported, stray]) expect(answer.text.length, answer.text.slice(0, 300)).toBeLessThan(500);
  });

  it('answers a body over 1 MiB with 413 ERR_PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), baseLanguage: 'en', translationLanguages: [] });
    const response = await server.api('POST', '/projects', { key: user.apiKey, rawBody: big, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(413);
    expect(response.body).toEqual(errorShape(413, 'ERR_PAYLOAD_TOO_LARGE'));
  });

  it('refuses __proto__ keys in bodies with 400', async () => {
    const response = await server.api('POST', '/projects', {
      key: user.apiKey,
      rawBody: '{"name":"Abc","baseLanguage":"en","translationLanguages":[],"__proto__":{"x":1}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('ERR_VALIDATION');
  });

  it.each([
    ['a NUL character', 'Ab\u0000c'],
    ['a lone surrogate', 'Ab\uD800c'],
  ])('refuses text with %s (it could not be stored faithfully)', async (_label, name) => {
    const response = await server.api('POST', '/projects', { key: user.apiKey, body: { name, baseLanguage: 'en', translationLanguages: [] } });
    expect(response.status).toBe(400);
    expect(response.body.details[0].path).toBe('/body/name');
  });

  it.each([
    ['a path parameter', '/projects/a%00b/groups', '/params/id'],
    ['a query parameter', '/projects?search=a%00b', '/querystring/search'],
  ])('refuses a NUL character in %s with 400 naming it (PostgreSQL cannot even compare it)', async (_label, path, pointer) => {
    const response = await server.api('GET', path, { key: user.apiKey });
    expect(response.status).toBe(400);
    expect(response.body.details[0].path).toBe(pointer);
  });

  it('keeps astral characters (paired surrogates) intact', async () => {
    const project = await createProject(server, user.apiKey, { name: 'Fun 🎉 app' });
    const response = await server.api('GET', `/projects/${project.id}`, { key: user.apiKey });
    expect(response.body.name).toBe('Fun 🎉 app');
  });
});

describe.each(DIALECTS)('requests the HTTP parser refuses, on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server?.close());

  it('answers headers over the limit with the contract body (400 ERR_VALIDATION), not Node\'s default', async () => {
    const response = await fetch(`${server.baseUrl}/version`, { headers: { 'x-padding': 'x'.repeat(300 * 1024) } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ statusCode: 400, code: 'ERR_VALIDATION', message: expect.stringContaining('KiB') });
  });

  it('still serves the longest valid query string (a 10,000-character search, percent-encoded)', async () => {
    const user = await server.user();
    const search = encodeURIComponent('😀'.repeat(10_000));
    const response = await server.api('GET', `/projects?limit=1&x=${search}`, { key: user.apiKey });
    expect(response.status).toBe(200);
  });
});

describe.each(DIALECTS)('health probes and security headers on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server?.close());

  const root = () => server.baseUrl.replace(/\/api\/v1$/, '');

  it('answers /healthz and /readyz without a key, outside the API', async () => {
    expect(await (await fetch(`${root()}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${root()}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('sends the security headers on successes and errors alike', async () => {
    for (const response of [await fetch(`${server.baseUrl}/version`), await fetch(`${server.baseUrl}/info`)]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
  });

  it('reports not ready (503 ERR_UNAVAILABLE) once the database is gone, and stays alive', async () => {
    const doomed = await startServer(dialect);
    const doomedRoot = doomed.baseUrl.replace(/\/api\/v1$/, '');
    await doomed.store.db.destroy();
    const ready = await fetch(`${doomedRoot}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ statusCode: 503, code: 'ERR_UNAVAILABLE', message: expect.any(String) });
    expect((await fetch(`${doomedRoot}/healthz`)).status).toBe(200);
    await doomed.close().catch(() => {});
  });
});
