/**
 * Web-session requests count against the user's daily quota like key requests (contract "Web
 * application": nothing an account can do is unmetered): the same count, RateLimit-* headers, 429
 * with Retry-After past it, exact across server instances; the budget is readable past the quota
 * (GET /usage), and signing out or revoking a key still works then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { setPasswordForEmail } from '../../src/domain/accounts/account-use-cases.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { secondsToUtcMidnight } from '../helpers/access.js';
import { openBrowserSession, type BrowserSession } from '../helpers/browser-session.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';
const today = () => new Date().toISOString().slice(0, 10);

const rateLimitOf = (response: ApiResponse) => ({
  limit: Number(response.headers.get('ratelimit-limit')),
  remaining: Number(response.headers.get('ratelimit-remaining')),
  reset: Number(response.headers.get('ratelimit-reset')),
});

function expectQuotaExceeded(response: ApiResponse) {
  expect(response.status, response.text).toBe(429);
  expect(response.body).toEqual({ statusCode: 429, code: 'ERR_QUOTA_EXCEEDED', message: expect.any(String) });
  expect(Math.abs(Number(response.headers.get('retry-after')) - secondsToUtcMidnight())).toBeLessThanOrEqual(5);
  expect(response.headers.get('ratelimit-remaining')).toBe('0');
}

describe.each(DIALECTS)('session requests and the daily quota on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server?.close());

  /** A user with a password and a key, signed in in a browser. */
  async function signedInUser(dailyQuota: number) {
    const user = await server.user({ dailyQuota });
    await setPasswordForEmail(server.store.db, user.email, PASSWORD);
    return { ...user, session: await openBrowserSession(server, { email: user.email, password: PASSWORD }) };
  }
  const usedToday = async (userId: string) => {
    const row = await server.store.usage.selectFrom('daily_usage').select('count').where('user_id', '=', userId).where('day', '=', today()).executeTakeFirst();
    return Number(row?.count ?? 0);
  };

  it('counts session requests in the same count as key requests, with RateLimit headers, then answers 429 with Retry-After', async () => {
    const user = await signedInUser(4);
    const answers = [await user.session.call('GET', '/info'), await server.api('GET', '/info', { key: user.apiKey }), await user.session.call('GET', '/projects')];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => rateLimitOf(answer).remaining)).toEqual([3, 2, 1]);
    for (const answer of answers) {
      expect(rateLimitOf(answer).limit).toBe(4);
      expect(Math.abs(rateLimitOf(answer).reset - secondsToUtcMidnight())).toBeLessThanOrEqual(5);
    }
    const created = await user.session.call('POST', '/projects', { body: { name: 'Budget', baseLanguage: 'en', translationLanguages: ['de'] } });
    expect(created.status, created.text).toBe(200);
    expect(rateLimitOf(created).remaining).toBe(0);
    expectQuotaExceeded(await user.session.call('GET', '/info'));
    expectQuotaExceeded(await user.session.call('GET', `/projects/${created.body.id}`));
    expectQuotaExceeded(await user.session.call('PATCH', '/info', { body: { firstName: 'Over' } }));
    expectQuotaExceeded(await server.api('GET', '/info', { key: user.apiKey }));
    expect(await usedToday(user.id)).toBe(4);
  });

  it('does not count a session request refused for its missing CSRF token (403), nor one without a live session (401)', async () => {
    const user = await signedInUser(10);
    const forged = await user.session.call('PATCH', '/info', { body: { firstName: 'Forged' }, headers: { 'x-csrf-token': '' } });
    expect(forged.status).toBe(403);
    expect((await server.api('GET', '/info', { headers: { cookie: 'tolk_session=made-up' } })).status).toBe(401);
    expect(await usedToday(user.id)).toBe(0);
  });

  it('tells the budget (GET /usage) with a session or a key, counting nothing, and still answers it past the quota', async () => {
    const user = await signedInUser(3);
    const fresh = await user.session.call('GET', '/usage');
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body).toEqual({ limit: 3, used: 0, remaining: 3, resetsInSeconds: expect.any(Number) });
    expect(Math.abs(fresh.body.resetsInSeconds - secondsToUtcMidnight())).toBeLessThanOrEqual(5);
    expect(fresh.headers.get('ratelimit-remaining')).toBeNull();
    for (let i = 0; i < 3; i++) expect((await user.session.call('GET', '/info')).status).toBe(200);
    expectQuotaExceeded(await user.session.call('GET', '/info'));
    for (const usage of [await user.session.call('GET', '/usage'), await server.api('GET', '/usage', { key: user.apiKey })]) {
      expect(usage.status, usage.text).toBe(200);
      expect(usage.body).toMatchObject({ limit: 3, used: 3, remaining: 0 });
    }
    expect(await usedToday(user.id)).toBe(3);
  });

  it('lets a user past the quota revoke a key and sign out (neither is counted nor refused)', async () => {
    const user = await signedInUser(2);
    const made = await user.session.call('POST', '/keys', { body: { name: 'leaked' } });
    expect(made.status, made.text).toBe(201);
    while ((await server.api('GET', '/info', { key: made.body.secret })).status === 200);
    expectQuotaExceeded(await user.session.call('GET', '/keys'));
    expect((await user.session.call('DELETE', `/keys/${made.body.id}`)).status).toBe(204);
    expect((await server.api('GET', '/info', { key: made.body.secret })).status).toBe(401);
    expect((await user.session.call('POST', '/auth/sign-out')).status).toBe(204);
    expect((await user.session.call('GET', '/usage')).status).toBe(401);
    expect(await usedToday(user.id)).toBe(2);
  });

  it('a session whose browser signed in again still shares the count (per user, not per session)', async () => {
    const user = await signedInUser(2);
    const second: BrowserSession = await openBrowserSession(server, { email: user.email, password: PASSWORD });
    expect((await user.session.call('GET', '/info')).status).toBe(200);
    expect((await second.call('GET', '/info')).status).toBe(200);
    expectQuotaExceeded(await second.call('GET', '/info'));
    expectQuotaExceeded(await user.session.call('GET', '/info'));
  });

  describe('across two server instances on one database', () => {
    let other: { store: Store; baseUrl: string; close: () => Promise<void> };
    beforeAll(async () => {
      const store = await openStore(server.databaseUrl);
      const app = await buildApp({ store, logLevel: 'silent' });
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      other = { store, baseUrl: `${address}/api/v1`, close: async () => (await app.close(), await store.close()) };
    });
    afterAll(() => other?.close());

    it('lets exactly quota-many of 60 concurrent session requests through, split across both instances', async () => {
      const quota = 20;
      const user = await signedInUser(quota);
      const call = (i: number) =>
        i % 2 === 0
          ? user.session.call('GET', '/info')
          : fetch(`${other.baseUrl}/info`, { headers: { cookie: user.session.cookie } }).then((response) => ({ status: response.status, headers: response.headers }));
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => call(i)));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(quota);
      expect(statuses.filter((status) => status === 429)).toHaveLength(60 - quota);
      const remainders = answers.filter((answer) => answer.status === 200).map((answer) => Number(answer.headers.get('ratelimit-remaining')));
      expect(remainders.sort((a, b) => a - b)).toEqual(Array.from({ length: quota }, (_, i) => i));
      expect(await usedToday(user.id)).toBe(quota);
    });
  });
});
