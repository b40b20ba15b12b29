/**
 * The daily request quota of the contract: exact per user and UTC day, RateLimit-* headers on every
 * counted answer, 429 with Retry-After past it; 401s, public endpoints and 304 exports are free; exact
 * across several server processes sharing one database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/domain/keys/api-keys.js';
import { secondsToUtcMidnight, startServerProcess, type ServerProcess, type TestUser } from '../helpers/access.js';
import { runCli } from '../helpers/cli.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

interface RateLimit {
  limit: number;
  remaining: number;
  reset: number;
}

/** The RateLimit-* headers of an answer, or null when it carries none of them. */
function rateLimitOf(response: { headers: Headers }): RateLimit | null {
  const [limit, remaining, reset] = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((name) => response.headers.get(name));
  if (limit === null && remaining === null && reset === null) return null;
  return { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) };
}

/** Seconds until the reset, as a header gives them: a whole number in 1..86400, about the time to the next UTC midnight. */
function expectSecondsToMidnight(value: string | null | number) {
  const seconds = Number(value);
  expect(Number.isInteger(seconds), String(value)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(86_400);
  expect(Math.abs(seconds - secondsToUtcMidnight())).toBeLessThanOrEqual(5);
}

function expectQuotaExceeded(response: ApiResponse) {
  expect(response.status, response.text).toBe(429);
  expect(response.body).toEqual({ statusCode: 429, code: 'ERR_QUOTA_EXCEEDED', message: expect.any(String) });
  expectSecondsToMidnight(response.headers.get('retry-after'));
}

const today = () => new Date().toISOString().slice(0, 10);

describe.each(DIALECTS)('the daily quota on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server?.close());

  const info = (key: string) => server.api('GET', '/info', { key });
  const usedToday = async (userId: string) => {
    const row = await server.store.usage.selectFrom('daily_usage').select('count').where('user_id', '=', userId).where('day', '=', today()).executeTakeFirst();
    return Number(row?.count ?? 0);
  };

  it('gives exactly N successes, each with RateLimit headers counting down to 0, then 429 ERR_QUOTA_EXCEEDED with Retry-After', async () => {
    const user = await server.user({ dailyQuota: 5 });
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await info(user.apiKey);
      expect(response.status).toBe(200);
      const rateLimit = rateLimitOf(response);
      expect(rateLimit?.limit).toBe(5);
      expectSecondsToMidnight(rateLimit!.reset);
      remaining.push(rateLimit!.remaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    for (const path of ['/info', '/projects', '/projects/nosuchproject']) expectQuotaExceeded(await server.api('GET', path, { key: user.apiKey }));
    expect(await usedToday(user.id)).toBe(5);
  });

  it('uses the default quota of 10,000 a day when none is set', async () => {
    const user = await server.user();
    expect(rateLimitOf(await info(user.apiKey))).toMatchObject({ limit: 10_000, remaining: 9_999 });
  });

  it('counts refused requests of valid keys too (404, 400, 403), with RateLimit headers', async () => {
    const owner = await server.user();
    const viewer = await server.user({ dailyQuota: 4 });
    const project = await createProject(server, owner.apiKey);
    await server.api('POST', `/projects/${project.id}/members`, { key: owner.apiKey, body: { email: viewer.email, role: 'viewer' } });
    expect((await server.api('POST', `/projects/${project.id}/members/accept`, { key: viewer.apiKey })).status).toBe(200);
    const answers = [
      await server.api('PATCH', `/projects/${project.id}`, { key: viewer.apiKey, body: { name: 'Not mine' } }),
      await server.api('GET', '/projects/nosuchproject', { key: viewer.apiKey }),
      await server.api('GET', '/projects?limit=0', { key: viewer.apiKey }),
    ];
    expect(answers.map((response) => [response.status, rateLimitOf(response)?.remaining])).toEqual([
      [403, 2],
      [404, 1],
      [400, 0],
    ]);
    expectQuotaExceeded(await info(viewer.apiKey));
  });

  it('never counts a request with a missing, unknown or revoked key: 401 without RateLimit headers', async () => {
    const user = await server.user({ dailyQuota: 2 });
    const second = await createApiKey(server.store.db, user.id, 'to revoke');
    const revoked = await runCli(server.databaseUrl, ['keys', 'revoke', '--id', second.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    for (const key of [second.apiKey, second.apiKey, 'tolk_unknown', null, second.apiKey]) {
      const response = await server.api('GET', '/info', { key });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('ERR_UNAUTHORIZED');
      expect(rateLimitOf(response)).toBeNull();
    }
    expect(await usedToday(user.id)).toBe(0);
    expect(rateLimitOf(await info(user.apiKey))).toMatchObject({ limit: 2, remaining: 1 });
    expect(rateLimitOf(await info(user.apiKey))).toMatchObject({ limit: 2, remaining: 0 });
  });

  it('never counts public endpoints (/locales, /version), even when called with a key and past the quota', async () => {
    const user = await server.user({ dailyQuota: 1 });
    for (let i = 0; i < 3; i++) {
      for (const path of ['/locales', '/version']) {
        const response = await server.api('GET', path, { key: user.apiKey });
        expect(response.status, path).toBe(200);
        expect(rateLimitOf(response), path).toBeNull();
      }
    }
    expect(rateLimitOf(await info(user.apiKey))).toMatchObject({ limit: 1, remaining: 0 });
    expectQuotaExceeded(await info(user.apiKey));
    expect((await server.api('GET', '/version', { key: user.apiKey })).status).toBe(200);
    expect((await server.api('GET', '/locales', { key: user.apiKey })).status).toBe(200);
  });

  it('counts a 200 export but not a 304 answer to a conditional export, which stays 304 once the quota is used up', async () => {
    const user = await server.user({ dailyQuota: 4 });
    const project = await createProject(server, user.apiKey);
    const path = `/projects/${project.id}/export/json`;

    const full = await server.api('GET', path, { key: user.apiKey });
    expect(full.status).toBe(200);
    expect(rateLimitOf(full)).toMatchObject({ limit: 4, remaining: 2 });
    const etag = full.headers.get('etag')!;
    expect(etag).toBeTruthy();
    for (let i = 0; i < 4; i++) {
      const notModified = await server.api('GET', path, { key: user.apiKey, headers: { 'if-none-match': etag } });
      expect(notModified.status).toBe(304);
      expect(rateLimitOf(notModified)).toBeNull();
    }
    expect(rateLimitOf(await info(user.apiKey))).toMatchObject({ remaining: 1 });
    const second = await server.api('GET', `/projects/${project.id}/export/i18next`, { key: user.apiKey });
    expect(second.status).toBe(200);
    expect(rateLimitOf(second)).toMatchObject({ remaining: 0 });

    expect((await server.api('GET', path, { key: user.apiKey, headers: { 'if-none-match': etag } })).status).toBe(304);
    expectQuotaExceeded(await server.api('GET', path, { key: user.apiKey }));
    expectQuotaExceeded(await server.api('GET', path, { key: user.apiKey, headers: { 'if-none-match': '"stale"' } }));
    expect(await usedToday(user.id)).toBe(4);
  });

  it('counts an export answered 404 or 400 like any other authenticated request (only a 304 is free)', async () => {
    const user = await server.user({ dailyQuota: 10 });
    const project = await createProject(server, user.apiKey);
    const unknown = await server.api('GET', '/projects/nosuchproject/export/json', { key: user.apiKey });
    expect(unknown.status).toBe(404);
    expect(rateLimitOf(unknown)).toMatchObject({ limit: 10, remaining: 8 });
    const invalid = await server.api('GET', `/projects/${project.id}/export/json?format=maybe`, { key: user.apiKey });
    expect(invalid.status).toBe(400);
    expect(rateLimitOf(invalid)).toMatchObject({ limit: 10, remaining: 7 });
  });

  it('counts a conditional export answered 404 or 400, which its handler never got to charge', async () => {
    const user = await server.user({ dailyQuota: 10 });
    const project = await createProject(server, user.apiKey);
    const conditional = { key: user.apiKey, headers: { 'if-none-match': '"some-etag"' } };
    const unknown = await server.api('GET', '/projects/nosuchproject/export/json', conditional);
    expect(unknown.status).toBe(404);
    expect(rateLimitOf(unknown)).toMatchObject({ limit: 10, remaining: 8 });
    const invalid = await server.api('GET', `/projects/${project.id}/export/json?format=maybe`, conditional);
    expect(invalid.status).toBe(400);
    expect(rateLimitOf(invalid)).toMatchObject({ limit: 10, remaining: 7 });
    expect(await usedToday(user.id)).toBe(3);
  });

  it('counts per user: two keys of one user share one count', async () => {
    const user = await server.user({ dailyQuota: 4 });
    const second = await createApiKey(server.store.db, user.id, 'second');
    const remaining = [];
    for (const key of [user.apiKey, second.apiKey, second.apiKey, user.apiKey]) remaining.push(rateLimitOf(await info(key))?.remaining);
    expect(remaining).toEqual([3, 2, 1, 0]);
    expectQuotaExceeded(await info(user.apiKey));
    expectQuotaExceeded(await info(second.apiKey));
  });

  it('keeps the quotas of different users independent', async () => {
    const spent = await server.user({ dailyQuota: 1 });
    const fresh = await server.user({ dailyQuota: 3 });
    expect((await info(spent.apiKey)).status).toBe(200);
    expectQuotaExceeded(await info(spent.apiKey));
    expect(rateLimitOf(await info(fresh.apiKey))).toMatchObject({ limit: 3, remaining: 2 });
  });

  it('counts per UTC day: yesterday\'s used-up quota does not hold today', async () => {
    const user = await server.user({ dailyQuota: 2 });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await server.store.usage.insertInto('daily_usage').values({ user_id: user.id, day: yesterday, count: 2 }).execute();
    expect(rateLimitOf(await info(user.apiKey))).toMatchObject({ limit: 2, remaining: 1 });
  });

  it('answers and counts a read while a long write transaction (an import, say) holds the store', async () => {
    const user = await server.user({ dailyQuota: 10 });
    const project = await createProject(server, user.apiKey, { name: 'Held' });
    let finish!: () => void;
    const holding = new Promise<void>((resolve) => (finish = resolve));
    let begun!: () => void;
    const inside = new Promise<void>((resolve) => (begun = resolve));
    const transaction = server.store.db.transaction().execute(async (trx) => {
      await trx.updateTable('projects').set({ name: 'Renamed inside' }).where('id', '=', project.id).execute();
      begun();
      await holding;
    });
    try {
      await inside;
      const timeout = new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), 3000));
      const answer = await Promise.race([server.api('GET', `/projects/${project.id}`, { key: user.apiKey }), timeout]);
      expect(answer).not.toBe('no answer');
      if (answer === 'no answer') return;
      expect(answer.status, answer.text).toBe(200);
      // the committed state, not the transaction's
      expect(answer.body).toMatchObject({ name: 'Held' });
      expect(rateLimitOf(answer)).toMatchObject({ limit: 10, remaining: 8 });
      expect(await usedToday(user.id)).toBe(2);
    } finally {
      finish();
      await transaction;
    }
  });

  describe('across two server processes on one database', () => {
    let processes: ServerProcess[] = [];
    beforeAll(async () => {
      processes = await Promise.all([startServerProcess(server.databaseUrl), startServerProcess(server.databaseUrl)]);
    });
    afterAll(async () => {
      await Promise.all(processes.map((instance) => instance.stop()));
    });

    const call = (instance: ServerProcess, path: string, key: string) =>
      fetch(`${instance.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } }).then(async (response) => ({
        status: response.status,
        headers: response.headers,
        body: await response.text(),
      }));

    it('lets exactly quota-many of 120 requests (116 of them at once) through, split across both processes, and refuses the rest with 429', async () => {
      const quota = 40;
      const user: TestUser = await server.user({ dailyQuota: quota });
      // First one request to each process in turn: both count into the one quota. Then the rest at
      // once, split: which process's batch takes the writer first (and with it the remaining
      // successes) is a race no rule decides, only that exactly quota-many pass in all.
      const answers: Awaited<ReturnType<typeof call>>[] = [];
      for (let i = 0; i < 4; i++) answers.push(await call(processes[i % 2]!, '/info', user.apiKey));
      answers.push(...(await Promise.all(Array.from({ length: 116 }, (_, i) => call(processes[i % 2]!, '/info', user.apiKey)))));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(quota);
      expect(statuses.filter((status) => status === 429)).toHaveLength(120 - quota);
      // every success took its own place in the count: the remainders are 39 … 0, each once
      const remainders = answers.filter((answer) => answer.status === 200).map((answer) => rateLimitOf(answer)!.remaining);
      expect(remainders.sort((a, b) => a - b)).toEqual(Array.from({ length: quota }, (_, i) => i));
      // both processes answered successes (their first turns above): the count is shared, not per process
      const successesPerProcess = [0, 1].map((p) => answers.filter((answer, i) => i % 2 === p && answer.status === 200).length);
      expect(successesPerProcess.every((n) => n > 0), String(successesPerProcess)).toBe(true);
      for (const answer of answers.filter((a) => a.status === 429)) expect(JSON.parse(answer.body).code).toBe('ERR_QUOTA_EXCEEDED');
      expect(await usedToday(user.id)).toBe(quota);
    });

    it('a key revoked by another process gets 401 at once from every process', async () => {
      const user = await server.user();
      const key = await createApiKey(server.store.db, user.id, 'shared');
      for (const instance of processes) expect((await call(instance, '/info', key.apiKey)).status).toBe(200);
      const revoked = await runCli(server.databaseUrl, ['keys', 'revoke', '--id', key.id]);
      expect(revoked.code, revoked.stderr).toBe(0);
      for (const instance of processes) expect((await call(instance, '/info', key.apiKey)).status).toBe(401);
      for (const instance of processes) expect((await call(instance, '/info', user.apiKey)).status).toBe(200);
    });
  });
});
