/**
 * Trust settings and deployment (issue 30, M6 L8 L9 L10): which proxies tolk believes about the
 * client (TRUST_PROXY), who may read /metrics, the embedded store's file modes, and the session
 * cookie's `__Host-` name over HTTPS. The fleet's HAProxy and PgBouncer are tested in test/fleet.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { fastifyTrustProxy } from '../../src/http/plugins/trust-proxy.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { originOf } from '../helpers/browser-session.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startServer, type TestServer } from '../helpers/server.js';

const names = { firstName: 'Ada', lastName: 'Lovelace' };
let counter = 0;
const unique = () => `${++counter}-${Date.now()}`;

describe('TRUST_PROXY and METRICS_PUBLIC', () => {
  const trustOf = (value: string | undefined) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  it('reads true as the nearest hop only, a number as that many hops, and a list of addresses or CIDRs as given', () => {
    expect(trustOf(undefined)).toBe(false);
    expect(trustOf('false')).toBe(false);
    expect(trustOf('0')).toBe(false);
    expect(trustOf('true')).toBe(1);
    expect(trustOf('2')).toBe(2);
    expect(trustOf('10.0.0.0/8,127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(trustOf(' 192.168.1.10 , ::1, fd00::/8, loopback ')).toEqual(['192.168.1.10', '::1', 'fd00::/8', 'loopback']);
  });

  it('refuses anything else with a one-line reason naming the variable', () => {
    for (const value of ['yes', 'TRUE', '10.0.0.0/33', '1.2.3', '10.0.0.1,', 'proxy.example.com', '-1', '1.5', '::1/129']) {
      expect(() => trustOf(value), value).toThrow(/^TRUST_PROXY must be .*, got "/);
    }
  });

  it('reads METRICS_PUBLIC as false or true, and refuses it beside a METRICS_TOKEN', () => {
    expect(loadConfig({}).metricsPublic).toBe(false);
    expect(loadConfig({ METRICS_PUBLIC: 'true' }).metricsPublic).toBe(true);
    expect(() => loadConfig({ METRICS_PUBLIC: 'yes' })).toThrow(/^METRICS_PUBLIC must be false or true/);
    expect(() => loadConfig({ METRICS_PUBLIC: 'true', METRICS_TOKEN: 'secret' })).toThrow(/METRICS_PUBLIC=true and METRICS_TOKEN/);
  });

  it('makes Fastify take the client address from the trusted hops alone, and X-Forwarded-Proto from a trusted peer', async () => {
    // inject() connects from 127.0.0.1; the client wrote 6.6.6.6, the proxies appended the rest.
    const seen = async (trust: Parameters<typeof fastifyTrustProxy>[0], forwardedFor: string) => {
      const app = Fastify({ trustProxy: fastifyTrustProxy(trust) });
      app.get('/', async (request) => ({ ip: request.ip, protocol: request.protocol }));
      const response = await app.inject({ url: '/', headers: { 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'https' } });
      await app.close();
      return response.json();
    };
    expect(await seen(false, '6.6.6.6, 203.0.113.7')).toEqual({ ip: '127.0.0.1', protocol: 'http' });
    expect(await seen(true, '6.6.6.6, 203.0.113.7')).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    expect(await seen(trustOf('true'), '6.6.6.6, 203.0.113.7')).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    expect(await seen(trustOf('2'), '6.6.6.6, 203.0.113.7, 10.0.0.2')).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    expect(await seen(trustOf('127.0.0.1,10.0.0.0/8'), '6.6.6.6, 203.0.113.7, 10.0.0.2')).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    // a proxy that is not in the list is the client, and its X-Forwarded-Proto is not believed
    expect(await seen(trustOf('10.0.0.0/8'), '6.6.6.6')).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });
});

describe.each(DIALECTS)('behind a proxy that appends the client address (TRUST_PROXY=true) on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(dialect, { trustProxy: true });
  });
  afterAll(() => server?.close());

  it('counts failed sign-ins against the address the proxy saw, whatever X-Forwarded-For the client wrote', async () => {
    // The proxy appends the address it saw (203.0.113.x); what the client wrote comes before it.
    const proxied = `203.0.113.${(counter % 200) + 1}`;
    const attempt = async (n: number) =>
      (
        await server.api('POST', '/auth/sign-in', {
          body: { email: `nobody-${unique()}@example.com`, password: 'wrong password' },
          headers: { 'x-forwarded-for': `198.18.${n}.${n + 1}, ${proxied}` },
        })
      ).status;
    // One after another (each wrong one costs a password hash), until the address's limit answers 429.
    const statuses: number[] = [];
    for (let n = 0; n < 30 && !statuses.includes(429); n += 1) statuses.push(await attempt(n));
    expect(statuses.filter((status) => status !== 401 && status !== 429), statuses.join(' ')).toEqual([]);
    expect(statuses, `${statuses.length} attempts, every new X-Forwarded-For entry let through`).toContain(429);
  }, 120_000);

  it('names the cookie __Host-tolk_session over HTTPS (Secure, Path=/, no Domain) and reads only that name there', async () => {
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': `198.51.100.${(counter % 200) + 1}` };
    const response = await server.api('POST', '/auth/sign-up', {
      body: { email: `host-${unique()}@example.com`, password: 'correct horse battery', ...names },
      headers: { ...https, origin: `https://${new URL(server.baseUrl).host}` },
    });
    expect(response.status, response.text).toBe(201);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('__Host-tolk_session='));
    expect(cookie, response.headers.getSetCookie().join('\n')).toBeDefined();
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).not.toMatch(/Domain=/i);
    const pair = cookie!.split(';')[0]!;
    const secret = pair.split('=')[1]!;
    const session = (cookieHeader: string, headers: Record<string, string> = https) => server.api('GET', '/auth/session', { headers: { ...headers, cookie: cookieHeader } });
    expect((await session(pair)).body.user).toMatchObject({ email: expect.stringMatching(/^host-/) });
    // Over HTTPS a plain-named cookie (planted by a neighbour) is not the session; over HTTP the prefixed one is not either.
    expect((await session(`tolk_session=${secret}`)).body.user).toBeNull();
    expect((await session(pair, {})).body.user).toBeNull();
  });

  it('names the cookie tolk_session over plain HTTP, without Secure', async () => {
    const response = await server.api('POST', '/auth/sign-up', {
      body: { email: `plain-${unique()}@example.com`, password: 'correct horse battery', ...names },
      headers: { origin: originOf(server), 'x-forwarded-for': `198.51.100.${(counter % 200) + 1}` },
    });
    expect(response.status, response.text).toBe(201);
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((line) => line.startsWith('__Host-'))).toBe(false);
    expect(cookies.find((line) => line.startsWith('tolk_session='))).not.toMatch(/Secure/);
  });
});

describe('GET /metrics', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const scrape = async (headers: Record<string, string> = {}) => {
    const response = await fetch(`${new URL(server!.baseUrl).origin}/metrics`, { headers });
    const text = await response.text();
    return { status: response.status, text, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
  };

  it('answers a client on this machine, and refuses one a trusted proxy forwards from elsewhere with 403', async () => {
    server = await startServer('sqlite', { trustProxy: true });
    expect((await scrape()).status).toBe(200);
    expect((await scrape({ 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
    const refused = await scrape({ 'x-forwarded-for': '203.0.113.9' });
    expect(refused).toMatchObject({ status: 403, body: { statusCode: 403, code: 'ERR_FORBIDDEN', message: expect.stringMatching(/METRICS_TOKEN/) } });
    expect(refused.text).not.toContain('tolk_http_requests_total');
  });

  it('refuses a request an untrusted proxy on this machine forwarded (everyone would look local)', async () => {
    server = await startServer('sqlite');
    expect((await scrape()).status).toBe(200);
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      expect((await scrape({ [header]: header === 'forwarded' ? 'for=203.0.113.9' : '203.0.113.9' })).status, header).toBe(403);
    }
  });

  it('needs the token from everyone once METRICS_TOKEN is set, and answers anyone with METRICS_PUBLIC=true', async () => {
    server = await startServer('sqlite', { trustProxy: true, metricsToken: 'scrape-secret' });
    expect((await scrape()).status).toBe(401);
    expect((await scrape({ 'x-forwarded-for': '203.0.113.9' })).status).toBe(401);
    expect((await scrape({ 'x-forwarded-for': '203.0.113.9', authorization: 'Bearer scrape-secret' })).status).toBe(200);
    await server.close();
    server = await startServer('sqlite', { trustProxy: true, metricsPublic: true });
    const answer = await scrape({ 'x-forwarded-for': '203.0.113.9' });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('tolk_http_requests_total');
  });
});

describe('the embedded store’s files', () => {
  let dir: string;
  let previousUmask: number;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tolk-modes-'));
    previousUmask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(previousUmask);
    rmSync(dir, { recursive: true, force: true });
  });

  it('are created 0600 (-wal, -shm and the usage file included) in folders created 0700, with umask 022', async () => {
    const store = await openStore(`sqlite:${join(dir, 'data', 'nested', 'tolk.db')}`);
    try {
      await startWrites(store);
      const folder = join(dir, 'data', 'nested');
      const files = readdirSync(folder).sort();
      expect(files).toEqual(expect.arrayContaining(['tolk.db', 'tolk.db-wal', 'tolk.db-shm', 'tolk.db-usage', 'tolk.db-usage-wal', 'tolk.db-usage-shm']));
      const modes = Object.fromEntries(files.map((file) => [file, (statSync(join(folder, file)).mode & 0o777).toString(8)]));
      expect(modes).toEqual(Object.fromEntries(files.map((file) => [file, '600'])));
      expect((statSync(join(dir, 'data')).mode & 0o777).toString(8)).toBe('700');
      expect((statSync(folder).mode & 0o777).toString(8)).toBe('700');
    } finally {
      await store.close();
    }
  });

  it('leaves the mode of a folder that exists already as it is', async () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o755);
    const store = await openStore(`sqlite:${join(shared, 'tolk.db')}`);
    await store.close();
    expect((statSync(shared).mode & 0o777).toString(8)).toBe('755');
    expect((statSync(join(shared, 'tolk.db')).mode & 0o777).toString(8)).toBe('600');
  });
});

/** A write in the main file and a count in the usage file, so that both have their -wal and -shm. */
async function startWrites(store: Store): Promise<void> {
  const user = await createUser(store.db, { email: `modes-${unique()}@example.com`, firstName: 'M', lastName: 'Odes' });
  await store.usage.insertInto('daily_usage').values({ user_id: user.id, day: '2026-01-01', count: 1 }).execute();
}
