/** `tolk users create --password-stdin` and `tolk users set-password`: web sign-in passwords from the CLI. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession, originOf } from '../helpers/browser-session.js';
import { runCli } from '../helpers/cli.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe.each(DIALECTS)('CLI passwords on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server?.close());

  const create = (email: string, stdin?: string) =>
    runCli(server.databaseUrl, ['users', 'create', '--email', email, '--first-name', 'Ada', '--last-name', 'Lovelace', ...(stdin === undefined ? [] : ['--password-stdin'])], stdin);
  const signIn = (email: string, password: string) => server.api('POST', '/auth/sign-in', { body: { email, password }, headers: { origin: originOf(server) } });

  it('creates a user who signs in with the first line of stdin and still gets an API key', async () => {
    const result = await create('stdin@example.com', 'first line only\nsecond line ignored\n');
    expect(result.code, result.stderr).toBe(0);
    const created = JSON.parse(result.stdout);
    expect((await server.api('GET', '/info', { key: created.apiKey })).status).toBe(200);
    expect((await signIn('stdin@example.com', 'first line only')).status).toBe(200);
    expect((await signIn('stdin@example.com', 'first line only\nsecond line ignored')).status).toBe(401);
  });

  it('creates a user without a password when the flag is absent: sign-in is refused like a wrong password', async () => {
    expect((await create('keys-only@example.com')).code).toBe(0);
    const response = await signIn('keys-only@example.com', 'anything at all');
    expect(response.status).toBe(401);
    expect(response.body.message).toBe('the e-mail or the password is wrong');
  });

  it('refuses a password that is too short, printing a reason and creating nobody', async () => {
    const result = await create('short@example.com', 'short\n');
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/8–256/);
    expect(await server.store.db.selectFrom('users').select('id').where('email', '=', 'short@example.com').execute()).toEqual([]);
  });

  it('set-password replaces the password and signs the user out of every browser', async () => {
    expect((await create('reset@example.com', 'the old password\n')).code).toBe(0);
    const session = await openBrowserSession(server, { email: 'reset@example.com', password: 'the old password' });
    const result = await runCli(server.databaseUrl, ['users', 'set-password', '--email', 'RESET@example.com', '--password-stdin'], 'the new password\n');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: session.user.id, passwordSet: true });
    expect((await session.call('GET', '/info')).status).toBe(401);
    expect((await signIn('reset@example.com', 'the old password')).status).toBe(401);
    expect((await signIn('reset@example.com', 'the new password')).status).toBe(200);
  });

  it('set-password for an unknown e-mail fails with a one-line reason', async () => {
    const result = await runCli(server.databaseUrl, ['users', 'set-password', '--email', 'nobody@example.com', '--password-stdin'], 'whatever password\n');
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('nobody@example.com');
  });
});
