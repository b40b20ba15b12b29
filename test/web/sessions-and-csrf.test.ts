/** The web application's session rules (contract "Web application"): cookie flags, CSRF token, Origin, sign-out, quota. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession, originOf } from '../helpers/browser-session.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startServer, type TestServer } from '../helpers/server.js';

let counter = 0;
const newAccount = () => ({ email: `web${++counter}-${Date.now()}@example.com`, password: 'correct horse battery' });
const names = { firstName: 'Ada', lastName: 'Lovelace' };

describe.each(DIALECTS)('web sessions on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(dialect, { trustProxy: true });
  });
  afterAll(() => server?.close());

  it('signs up with a session cookie that is HttpOnly, SameSite=Lax, path /, and not Secure over plain HTTP', async () => {
    const response = await server.api('POST', '/auth/sign-up', { body: { ...newAccount(), ...names }, headers: { origin: originOf(server) } });
    expect(response.status).toBe(201);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('tolk_session='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    expect(response.body).toEqual({ user: expect.objectContaining({ ...names, locale: 'en', timezone: 'UTC' }), csrfToken: expect.any(String) });
    // A web sign-up makes no API key: keys are made in the settings, their secret shown there once.
    const keys = await server.store.db.selectFrom('api_keys').select('id').where('user_id', '=', response.body.user.id).execute();
    expect(keys).toEqual([]);
  });

  it('marks the cookie Secure when a trusted proxy says the request came over HTTPS', async () => {
    const account = newAccount();
    const response = await server.api('POST', '/auth/sign-up', {
      body: { ...account, ...names },
      headers: { 'x-forwarded-proto': 'https', origin: `https://${new URL(server.baseUrl).host}` },
    });
    expect(response.status).toBe(201);
    // Secure, it carries the __Host- prefix (test/access/trust-and-deployment.test.ts)
    expect(response.headers.getSetCookie().find((line) => line.startsWith('__Host-tolk_session='))).toMatch(/; Secure/);
  });

  it('stores only a hash of the session secret and only a scrypt hash of the password', async () => {
    const account = newAccount();
    const session = await openBrowserSession(server, account, names);
    const secret = session.cookie.split('=')[1]!;
    const rows = await server.store.db.selectFrom('sessions').selectAll().where('user_id', '=', session.user.id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret);
    const user = await server.store.db.selectFrom('users').select('password_hash').where('id', '=', session.user.id).executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(user.password_hash).not.toContain(account.password);
  });

  it('GET /auth/session names the signed-in user and a CSRF token; without a cookie, nobody', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    const signedIn = await server.api('GET', '/auth/session', { headers: { cookie: session.cookie } });
    expect(signedIn.body).toEqual({ user: expect.objectContaining({ id: session.user.id }), csrfToken: expect.any(String), signUpOpen: true });
    expect(signedIn.headers.get('cache-control')).toBe('no-store');
    const anonymous = await server.api('GET', '/auth/session');
    expect(anonymous.body).toEqual({ user: null, csrfToken: null, signUpOpen: true });
  });

  it('lets the session read and write every API route, with CSRF token and same Origin', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    const created = await session.call('POST', '/projects', { body: { name: 'Web made', baseLanguage: 'en', translationLanguages: ['de'] } });
    expect(created.status).toBe(200);
    expect((await session.call('GET', `/projects/${created.body.id}`)).status).toBe(200);
  });

  it('refuses a cookie-only state change: no CSRF token → 403 ERR_FORBIDDEN, and nothing is written', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    const before = await server.store.db.selectFrom('projects').select('id').where('owner_id', '=', session.user.id).execute();
    const response = await server.api('POST', '/projects', {
      body: { name: 'Forged', baseLanguage: 'en', translationLanguages: [] },
      headers: { cookie: session.cookie, origin: originOf(server) },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ statusCode: 403, code: 'ERR_FORBIDDEN', message: expect.stringContaining('CSRF') });
    const after = await server.store.db.selectFrom('projects').select('id').where('owner_id', '=', session.user.id).execute();
    expect(after).toEqual(before);
  });

  it("refuses a token made for another session, and a malformed one", async () => {
    const mine = await openBrowserSession(server, newAccount(), names);
    const theirs = await openBrowserSession(server, newAccount(), names);
    for (const token of [theirs.csrfToken, 'x', mine.csrfToken.slice(0, -2)]) {
      const response = await mine.call('POST', '/projects', { body: { name: 'Forged', baseLanguage: 'en', translationLanguages: [] }, headers: { 'x-csrf-token': token } });
      expect(response.status, token).toBe(403);
    }
  });

  it('refuses a foreign Origin, a missing Origin and a null Origin even with the right token', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    const body = { name: 'Cross site', baseLanguage: 'en', translationLanguages: [] };
    for (const origin of ['https://evil.example', 'null', `${originOf(server)}.evil.example`]) {
      const response = await session.call('POST', '/projects', { body, headers: { origin } });
      expect(response.status, origin).toBe(403);
      expect(response.body.code).toBe('ERR_FORBIDDEN');
    }
    const withoutOrigin = await server.api('POST', '/projects', { body, headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken } });
    expect(withoutOrigin.status).toBe(403);
  });

  it('refuses a sign-in posted from another site', async () => {
    const account = newAccount();
    await openBrowserSession(server, account, names);
    const response = await server.api('POST', '/auth/sign-in', { body: account, headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('charges session requests to the daily quota like key requests, with RateLimit headers (more in test/access/session-metering.test.ts)', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    for (let i = 0; i < 3; i++) {
      const response = await session.call('GET', '/info');
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-remaining')).toBe(String(10_000 - i - 1));
    }
    const usage = await server.store.usage.selectFrom('daily_usage').select('count').where('user_id', '=', session.user.id).execute();
    expect(usage.map((row) => Number(row.count))).toEqual([3]);
  });

  it('signs out: the cookie is cleared and the old cookie gets 401 at once', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    const response = await session.call('POST', '/auth/sign-out');
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie().find((line) => line.startsWith('tolk_session='))).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    const after = await server.api('GET', '/info', { headers: { cookie: session.cookie } });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('ERR_UNAUTHORIZED');
  });

  it('refuses sign-out and key management made with an API key (403): they belong to the web application', async () => {
    const user = await server.user();
    for (const [method, path, body] of [['GET', '/keys'], ['POST', '/keys', { name: 'more' }], ['POST', '/auth/sign-out'], ['PUT', '/auth/password', { currentPassword: 'x', newPassword: 'yyyyyyyyyy' }]] as const) {
      const response = await server.api(method, path, { key: user.apiKey, ...(body ? { body } : {}) });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
  });

  it('answers 401 for a made-up or over-long cookie', async () => {
    for (const cookie of ['tolk_session=made-up', `tolk_session=${'a'.repeat(5000)}`]) {
      expect((await server.api('GET', '/info', { headers: { cookie } })).status).toBe(401);
    }
  });

  it('changes the password: the wrong current one → 400, the right one ends the other sessions and the new password signs in', async () => {
    const account = newAccount();
    const first = await openBrowserSession(server, account, names);
    const second = await openBrowserSession(server, account);
    const wrong = await first.call('PUT', '/auth/password', { body: { currentPassword: 'not it at all', newPassword: 'a new secret phrase' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toEqual([{ path: '/body/currentPassword', message: expect.any(String) }]);
    const tooShort = await first.call('PUT', '/auth/password', { body: { currentPassword: account.password, newPassword: 'short' } });
    expect(tooShort.status).toBe(400);
    const changed = await first.call('PUT', '/auth/password', { body: { currentPassword: account.password, newPassword: 'a new secret phrase' } });
    expect(changed.status).toBe(204);
    expect((await first.call('GET', '/info')).status).toBe(200);
    expect((await second.call('GET', '/info')).status).toBe(401);
    expect((await server.api('POST', '/auth/sign-in', { body: account })).status).toBe(401);
    expect((await server.api('POST', '/auth/sign-in', { body: { ...account, password: 'a new secret phrase' } })).status).toBe(200);
  });

  it('edits the profile with PATCH /info and checks locale and time zone', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    const changed = await session.call('PATCH', '/info', { body: { locale: 'de', timezone: 'Europe/Berlin', firstName: 'Ada A.' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ locale: 'de', timezone: 'Europe/Berlin', firstName: 'Ada A.', lastName: 'Lovelace' });
    expect((await session.call('PATCH', '/info', { body: { timezone: 'Mars/Olympus' } })).status).toBe(400);
    expect((await session.call('PATCH', '/info', { body: { locale: 'xx-nope' } })).status).toBe(400);
    expect((await session.call('PATCH', '/info', { body: {} })).status).toBe(400);
  });

  it('refuses sign-up passwords outside 8–256 code points, counting code points, not UTF-16 units', async () => {
    const origin = originOf(server);
    const signUp = (password: string) => server.api('POST', '/auth/sign-up', { body: { ...newAccount(), ...names, password }, headers: { origin } });
    expect((await signUp('seven77')).status).toBe(400);
    expect((await signUp('😀'.repeat(7))).status).toBe(400);
    expect((await signUp('😀'.repeat(8))).status).toBe(201);
    expect((await signUp('a'.repeat(257))).status).toBe(400);
  });

  it('answers 409 for a sign-up with a taken e-mail, whatever its case', async () => {
    const account = newAccount();
    await openBrowserSession(server, account, names);
    const again = await server.api('POST', '/auth/sign-up', { body: { ...account, email: account.email.toUpperCase(), ...names }, headers: { origin: originOf(server) } });
    expect(again.status).toBe(409);
  });
});

describe('sign-up closed (TOLK_SIGNUP=closed)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', { signUpOpen: false });
  });
  afterAll(() => server?.close());

  it('refuses sign-up with 403 and says so in the session state', async () => {
    const response = await server.api('POST', '/auth/sign-up', { body: { ...newAccount(), ...names }, headers: { origin: originOf(server) } });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('ERR_FORBIDDEN');
    expect((await server.api('GET', '/auth/session')).body.signUpOpen).toBe(false);
  });
});

