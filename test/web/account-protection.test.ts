/**
 * What protects accounts from strangers (issue 30): small bodies on the routes open to anyone (413
 * naming the limit, read by an ordinary HTTP client), sign-in throttled per (e-mail, address) so that a
 * stranger's guesses do not lock the owner out of their own address, a backstop per e-mail across
 * addresses, password changes throttled, and a password change that can revoke the user's API keys.
 * Client addresses are real: the clients connect from different loopback addresses (no proxy header).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPasswordForEmail } from '../../src/domain/accounts/account-use-cases.js';
import { admitSignIn, THROTTLE } from '../../src/domain/accounts/sign-in-throttle.js';
import { PUBLIC_BODY_LIMIT } from '../../src/http/plugins/public-bodies.js';
import { openBrowserSession } from '../helpers/browser-session.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { measureStall } from '../helpers/stall.js';

const PASSWORD = 'correct horse battery';
const OWNER_ADDRESS = '127.0.0.1';
const STRANGER_ADDRESS = '127.0.0.2';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * POSTs `body` with node:http from `localAddress`, written in 4 KiB pieces as a client streams it
 * (chunked when `chunked`), and reads the whole answer: a reset connection rejects.
 */
function post(url: string, body: string, { localAddress = OWNER_ADDRESS, chunked = false, origin = new URL(url).origin } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json', origin };
    if (!chunked) headers['content-length'] = Buffer.byteLength(body);
    const request = httpRequest(url, { method: 'POST', localAddress, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    let offset = 0;
    const writeMore = () => {
      while (offset < body.length) {
        const piece = body.slice(offset, (offset += 4096));
        if (!request.write(piece)) return void request.once('drain', writeMore);
      }
      request.end();
    };
    writeMore();
  });
}

/** A sign-in body just under `bytes` bytes, nested as deep as they allow: costly JSON to parse and walk. */
function nested(bytes: number): string {
  const depth = Math.floor((bytes - 100) / 2);
  return `{"email":"a@example.com","password":"x","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

describe.each(DIALECTS)('account protection on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server?.close());

  const url = (path: string) => `${server.baseUrl}${path}`;
  const signIn = (email: string, password: string, localAddress: string) => post(url('/auth/sign-in'), JSON.stringify({ email, password }), { localAddress });

  /** A user with a password (and a key), and a session of theirs. */
  async function account() {
    const user = await server.user();
    await setPasswordForEmail(server.store.db, user.email, PASSWORD);
    return { ...user, session: await openBrowserSession(server, { email: user.email, password: PASSWORD }) };
  }

  describe('bodies of the routes open to anyone', () => {
    /** The paths of the API's routes that take a body and no credentials, as its OpenAPI document lists them. */
    async function publicBodyRoutes(): Promise<string[]> {
      const document = (await server.api('GET', '/openapi.json')).body;
      const open = Object.entries<any>(document.paths).filter(([, item]) => item.post && !item.post.security && item.post.requestBody);
      return open.map(([path]) => path);
    }

    it(`answers a body over ${PUBLIC_BODY_LIMIT} bytes on every route open to anyone with 413 naming the limit, read whole by node:http`, async () => {
      const large = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(64 * 1024), firstName: 'A', lastName: 'B' });
      const paths = await publicBodyRoutes();
      expect(paths).toEqual(expect.arrayContaining(['/auth/sign-in', '/auth/sign-up']));
      for (const path of paths) {
        for (const chunked of [false, true]) {
          const answer = await post(url(path), large, { chunked });
          expect(answer.status, `${path} chunked=${chunked}`).toBe(413);
          expect(answer.body).toEqual({ statusCode: 413, code: 'ERR_PAYLOAD_TOO_LARGE', message: expect.stringContaining('8,192 bytes') });
        }
      }
    });

    it('takes the largest valid sign-up even with every character JSON-escaped', async () => {
      const astral = (n: number) => '😀'.repeat(n);
      const body = { email: `${'e'.repeat(230)}-${Date.now()}@example.com`.slice(-254), password: astral(256), firstName: astral(100), lastName: astral(100), timezone: 'America/Argentina/ComodRivadavia' };
      const escaped = JSON.stringify(body).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      expect(Buffer.byteLength(escaped)).toBeGreaterThan(5_000);
      const answer = await post(url('/auth/sign-up'), escaped);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    });

    it('refuses a 1 MiB nested JSON sign-in before parsing it: 413, the event loop barely held', async () => {
      const body = nested(1024 * 1024);
      expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
      const { result, stallMs } = await measureStall(() => post(url('/auth/sign-in'), body));
      expect(result.status).toBe(413);
      // ~1,000 ms of stall on this machine when the body was parsed (400), 28–108 ms refused unread.
      expect(stallMs).toBeLessThan(400);
    });

    it('documents the 413 of the public routes with the limit', async () => {
      const document = (await server.api('GET', '/openapi.json')).body;
      for (const path of await publicBodyRoutes()) expect(document.paths[path].post.responses['413'].description, path).toContain('8,192 bytes');
    });
  });

  describe('sign-in throttling', () => {
    it("lets the owner sign in from their address after a stranger's failures from another one locked the stranger out", async () => {
      const owner = await account();
      for (let i = 0; i < THROTTLE.perEmailAndAddress; i++) expect((await signIn(owner.email, 'a wrong guess', STRANGER_ADDRESS)).status).toBe(401);
      const blocked = await signIn(owner.email, PASSWORD, STRANGER_ADDRESS);
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('ERR_QUOTA_EXCEEDED');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signIn(owner.email, PASSWORD, OWNER_ADDRESS)).status).toBe(200);
    });

    it('answers an unknown e-mail the same: 401s, then 429 from that address only', async () => {
      const ghost = `ghost-${Date.now()}@example.com`;
      for (let i = 0; i < THROTTLE.perEmailAndAddress; i++) expect((await signIn(ghost, 'a wrong guess', STRANGER_ADDRESS)).status).toBe(401);
      expect((await signIn(ghost, 'a wrong guess', STRANGER_ADDRESS)).status).toBe(429);
      expect((await signIn(ghost, 'a wrong guess', OWNER_ADDRESS)).status).toBe(401);
    });

    it(`holds an e-mail after ${THROTTLE.perEmail} failures across addresses (the backstop), even for the right password from a new address`, async () => {
      const owner = await account();
      for (let i = 0; i < THROTTLE.perEmail; i++) await admitSignIn(server.store.db, owner.email, `198.18.${i >> 8}.${i & 255}`);
      const held = await signIn(owner.email, PASSWORD, OWNER_ADDRESS);
      expect(held.status).toBe(429);
      expect(held.body.code).toBe('ERR_QUOTA_EXCEEDED');
    });
  });

  describe('password change', () => {
    const change = (session: Awaited<ReturnType<typeof account>>['session'], currentPassword: string, extra: object = {}) =>
      session.call('PUT', '/auth/password', { body: { currentPassword, newPassword: 'a brand new passphrase', ...extra } });

    it(`answers 429 with Retry-After after ${THROTTLE.passwordChangesPerUser} wrong current passwords, even for the right one`, async () => {
      const user = await account();
      for (let i = 0; i < THROTTLE.passwordChangesPerUser; i++) expect((await change(user.session, `wrong guess ${i}`)).status).toBe(400);
      for (const guess of ['one more guess', PASSWORD]) {
        const refused = await change(user.session, guess);
        expect(refused.status, refused.text).toBe(429);
        expect(refused.body.code).toBe('ERR_QUOTA_EXCEEDED');
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });

    it("revokes the user's API keys at once with revokeApiKeys: true, ends the other sessions and keeps this one", async () => {
      const user = await account();
      const other = await openBrowserSession(server, { email: user.email, password: PASSWORD });
      expect((await server.api('GET', '/info', { key: user.apiKey })).status).toBe(200);
      expect((await change(user.session, PASSWORD, { revokeApiKeys: true })).status).toBe(204);
      expect((await server.api('GET', '/info', { key: user.apiKey })).status).toBe(401);
      expect((await other.call('GET', '/info')).status).toBe(401);
      expect((await user.session.call('GET', '/info')).status).toBe(200);
    });

    it('keeps the API keys without revokeApiKeys', async () => {
      const user = await account();
      expect((await change(user.session, PASSWORD)).status).toBe(204);
      expect((await server.api('GET', '/info', { key: user.apiKey })).status).toBe(200);
    });
  });
});
