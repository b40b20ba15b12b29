/** Sign-in without user enumeration, its throttling, and API keys made in the web application. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE } from '../../src/domain/accounts/sign-in-throttle.js';
import { openBrowserSession, originOf } from '../helpers/browser-session.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startServer, type TestServer } from '../helpers/server.js';

let counter = 0;
const newAccount = () => ({ email: `signin${++counter}-${Date.now()}@example.com`, password: 'correct horse battery' });
const names = { firstName: 'Grace', lastName: 'Hopper' };
let addressCounter = 0;
/** Each test signs in from its own client address (X-Forwarded-For, trusted here), so counters do not mix. */
const newAddress = () => `203.0.113.${++addressCounter}`;

describe.each(DIALECTS)('sign-in and API keys on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(dialect, { trustProxy: true });
  });
  afterAll(() => server?.close());

  const signIn = (body: unknown, address: string) =>
    server.api('POST', '/auth/sign-in', { body, headers: { origin: originOf(server), 'x-forwarded-for': address } });

  it('answers a wrong password and an unknown e-mail alike: same status, code and message, no cookie', async () => {
    const account = newAccount();
    await openBrowserSession(server, account, names);
    const address = newAddress();
    const wrongPassword = await signIn({ ...account, password: 'not the password' }, address);
    const unknownEmail = await signIn({ email: `nobody-${Date.now()}@example.com`, password: 'not the password' }, address);
    const noPasswordUser = await server.user();
    const keyOnlyUser = await signIn({ email: noPasswordUser.email, password: 'not the password' }, address);
    for (const response of [wrongPassword, unknownEmail, keyOnlyUser]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ statusCode: 401, code: 'ERR_UNAUTHORIZED', message: 'the e-mail or the password is wrong' });
      expect(response.headers.getSetCookie()).toEqual([]);
    }
  });

  it(`throttles an e-mail from an address after ${THROTTLE.perEmailAndAddress} failures: 429 ERR_QUOTA_EXCEEDED with Retry-After, even for the right password, and alike for unknown e-mails`, async () => {
    const account = newAccount();
    await openBrowserSession(server, account, names);
    const unknown = { email: `ghost-${Date.now()}@example.com`, password: 'guess guess' };
    for (const target of [account, unknown]) {
      const address = newAddress();
      const failures = await Promise.all(
        Array.from({ length: THROTTLE.perEmailAndAddress }, () => signIn({ email: target.email, password: 'wrong guess' }, address)),
      );
      expect(failures.map((r) => r.status)).toEqual(Array(THROTTLE.perEmailAndAddress).fill(401));
      const blocked = await signIn(target, address);
      expect(blocked.status, target.email).toBe(429);
      expect(blocked.body.code).toBe('ERR_QUOTA_EXCEEDED');
      const retryAfter = Number(blocked.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(THROTTLE.windowMs / 1000);
    }
  });

  it(`throttles a client address after ${THROTTLE.perAddress} failures across e-mails`, async () => {
    const address = newAddress();
    const account = newAccount();
    await openBrowserSession(server, account, names);
    const failures = await Promise.all(
      Array.from({ length: THROTTLE.perAddress }, (_, i) => signIn({ email: `spray${i}-${Date.now()}@example.com`, password: 'wrong guess' }, address)),
    );
    expect(failures.every((r) => r.status === 401)).toBe(true);
    expect((await signIn(account, address)).status).toBe(429);
    expect((await signIn(account, newAddress())).status).toBe(200);
  });

  it('lets exactly the allowed number of a parallel burst of guesses be checked; the rest get 429 at once', async () => {
    const account = newAccount();
    await openBrowserSession(server, account, names);
    const address = newAddress();
    const burst = await Promise.all(
      Array.from({ length: THROTTLE.perEmailAndAddress + 7 }, () => signIn({ ...account, password: 'parallel guess' }, address)),
    );
    const statuses = burst.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(THROTTLE.perEmailAndAddress).fill(401), ...Array(7).fill(429)]);
  });

  it('forgets the failures of an e-mail from an address after a successful sign-in', async () => {
    const account = newAccount();
    await openBrowserSession(server, account, names);
    const address = newAddress();
    for (let i = 0; i < THROTTLE.perEmailAndAddress - 1; i++) await signIn({ ...account, password: 'wrong guess' }, address);
    expect((await signIn(account, address)).status).toBe(200);
    for (let i = 0; i < THROTTLE.perEmailAndAddress - 1; i++) expect((await signIn({ ...account, password: 'wrong guess' }, address)).status).toBe(401);
    expect((await signIn(account, address)).status).toBe(200);
  });

  it(`refuses more than ${THROTTLE.signUpsPerAddress} sign-ups from one address within the window (429 with Retry-After), taken e-mails counted too`, async () => {
    const address = newAddress();
    const taken = newAccount();
    await openBrowserSession(server, taken, names);
    const signUp = () => server.api('POST', '/auth/sign-up', { body: { ...taken, ...names }, headers: { origin: originOf(server), 'x-forwarded-for': address } });
    const attempts = await Promise.all(Array.from({ length: THROTTLE.signUpsPerAddress }, signUp));
    expect(attempts.map((r) => r.status)).toEqual(Array(THROTTLE.signUpsPerAddress).fill(409));
    const refused = await server.api('POST', '/auth/sign-up', { body: { ...newAccount(), ...names }, headers: { origin: originOf(server), 'x-forwarded-for': address } });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('ERR_QUOTA_EXCEEDED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const elsewhere = await server.api('POST', '/auth/sign-up', { body: { ...newAccount(), ...names }, headers: { origin: originOf(server), 'x-forwarded-for': newAddress() } });
    expect(elsewhere.status).toBe(201);
  });

  it('creates a key whose secret appears in the create answer only, works against the API at once, and is listed without it', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    const created = await session.call('POST', '/keys', { body: { name: 'CI pipeline' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { secret, ...key } = created.body;
    expect(secret).toMatch(/^tolk_[A-Za-z0-9_-]{43}$/);
    expect(key).toEqual({ id: expect.any(String), name: 'CI pipeline', prefix: secret.slice(0, 11), createdAt: expect.any(String), lastUsedAt: null, expiresAt: null });
    const used = await server.api('GET', '/info', { key: secret });
    expect(used.status).toBe(200);
    expect(used.body.id).toBe(session.user.id);
    const listed = await session.call('GET', '/keys');
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain(secret.slice(11));
    expect(listed.body).toEqual([{ ...key, lastUsedAt: expect.any(String) }]);
    // Nothing the server keeps holds the secret either.
    const stored = await server.store.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).execute();
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('revokes a key from the settings: 401 at once; revoking again or another user\'s key → 404', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    const other = await openBrowserSession(server, newAccount(), names);
    const { secret, id } = (await session.call('POST', '/keys', { body: { name: 'to revoke' } })).body;
    expect((await server.api('GET', '/projects', { key: secret })).status).toBe(200);
    expect((await other.call('DELETE', `/keys/${id}`)).status).toBe(404);
    expect((await session.call('DELETE', `/keys/${id}`)).status).toBe(204);
    const after = await server.api('GET', '/projects', { key: secret });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('ERR_UNAUTHORIZED');
    expect((await session.call('DELETE', `/keys/${id}`)).status).toBe(404);
    expect((await session.call('GET', '/keys')).body).toEqual([]);
  });

  it('takes an expiry in the future only, and an expired key is 401 and no longer listed', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    expect((await session.call('POST', '/keys', { body: { name: 'past', expiresAt: '2020-01-01T00:00:00.000Z' } })).status).toBe(400);
    expect((await session.call('POST', '/keys', { body: { name: 'bad', expiresAt: 'tomorrow' } })).status).toBe(400);
    const soon = new Date(Date.now() + 1500).toISOString();
    const created = await session.call('POST', '/keys', { body: { name: 'soon', expiresAt: soon } });
    expect(created.status).toBe(201);
    expect(created.body.expiresAt).toBe(soon);
    expect((await server.api('GET', '/info', { key: created.body.secret })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await server.api('GET', '/info', { key: created.body.secret })).status).toBe(401);
    expect((await session.call('GET', '/keys')).body).toEqual([]);
  });

  it('refuses key names that are empty or blank', async () => {
    const session = await openBrowserSession(server, newAccount(), names);
    for (const name of ['', '   ', 'x'.repeat(101)]) expect((await session.call('POST', '/keys', { body: { name } })).status, JSON.stringify(name)).toBe(400);
  });
});
