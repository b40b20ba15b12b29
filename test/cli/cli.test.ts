import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/access.js';
import { runCli, TOLK_BIN } from '../helpers/cli.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe.each(DIALECTS)('the tolk CLI on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server?.close());

  const userArgs = (email: string) => ['users', 'create', '--email', email, '--first-name', 'Ada', '--last-name', 'Lovelace'];

  it('users create prints one JSON object whose key works against the server at once', async () => {
    const result = await runCli(server.databaseUrl, [...userArgs('ada@example.com'), '--locale', 'en-GB', '--timezone', 'Europe/London']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!);
    expect(Object.keys(created).sort()).toEqual(['apiKey', 'email', 'id']);
    expect(created.email).toBe('ada@example.com');
    expect(created.apiKey).toMatch(/^tolk_[A-Za-z0-9_-]{40,}$/);
    const info = await server.api('GET', '/info', { key: created.apiKey });
    expect(info.body).toEqual({ id: created.id, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', locale: 'en-GB', timezone: 'Europe/London', emailVerified: false });
  });

  it('users create stores --member-limit and --daily-quota', async () => {
    const result = await runCli(server.databaseUrl, [...userArgs('limits@example.com'), '--daily-quota', '123', '--member-limit', '7']);
    expect(result.code, result.stderr).toBe(0);
    const { id, apiKey } = JSON.parse(result.stdout);
    const project = await createProject(server, apiKey);
    expect((await server.api('GET', `/projects/${project.id}`, { key: apiKey })).body.memberQuota.limit).toBe(7);
    const row = await server.store.db.selectFrom('users').select(['daily_quota', 'member_limit']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ daily_quota: 123, member_limit: 7 });
  });

  it.each([
    ['a taken e-mail (any case)', ['users', 'create', '--email', 'ADA@example.com', '--first-name', 'A', '--last-name', 'B']],
    ['a malformed e-mail', ['users', 'create', '--email', 'not-an-email', '--first-name', 'A', '--last-name', 'B']],
    ['a bad --daily-quota', ['users', 'create', '--email', 'q@example.com', '--first-name', 'A', '--last-name', 'B', '--daily-quota', 'lots']],
    ['an unknown locale', ['users', 'create', '--email', 'l@example.com', '--first-name', 'A', '--last-name', 'B', '--locale', 'xx-XX']],
    ['an unknown time zone', ['users', 'create', '--email', 't@example.com', '--first-name', 'A', '--last-name', 'B', '--timezone', 'Mars/Olympus']],
    ['a missing option', ['users', 'create', '--email', 'm@example.com']],
    ['keys create for an unknown e-mail', ['keys', 'create', '--email', 'nobody@example.com']],
    ['keys revoke of an unknown id', ['keys', 'revoke', '--id', 'nope']],
  ])('fails with %s: non-zero exit, nothing on stdout, a reason on stderr', async (_label, args) => {
    await runCli(server.databaseUrl, userArgs('ada@example.com')); // makes sure the taken e-mail exists
    const result = await runCli(server.databaseUrl, args);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().length).toBeGreaterThan(0);
  });

  it('keys create adds a working key; keys revoke makes it 401 at once while others keep working', async () => {
    const user = JSON.parse((await runCli(server.databaseUrl, userArgs('keys@example.com'))).stdout);
    const second = await runCli(server.databaseUrl, ['keys', 'create', '--email', 'keys@example.com', '--name', 'ci']);
    expect(second.code, second.stderr).toBe(0);
    const key = JSON.parse(second.stdout);
    expect(Object.keys(key).sort()).toEqual(['apiKey', 'id']);
    expect((await server.api('GET', '/info', { key: key.apiKey })).status).toBe(200);

    const revoked = await runCli(server.databaseUrl, ['keys', 'revoke', '--id', key.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await server.api('GET', '/info', { key: key.apiKey });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('ERR_UNAUTHORIZED');
    expect((await server.api('GET', '/info', { key: user.apiKey })).status).toBe(200);
  });

  it('serve listens on PORT and stops cleanly on SIGTERM', async () => {
    // a port the OS just handed out (a random one could be an outgoing connection's: serve then exits at once)
    const port = await freePort();
    const child = spawn(process.execPath, [TOLK_BIN, 'serve'], {
      env: { ...process.env, DATABASE_URL: server.databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    try {
      let version: unknown;
      for (let attempt = 0; attempt < 100 && version === undefined; attempt++) {
        version = await fetch(`http://127.0.0.1:${port}/api/v1/version`).then((r) => r.json()).catch(() => undefined);
        if (version === undefined) await new Promise((r) => setTimeout(r, 100));
      }
      expect(version).toMatchObject({ version: '1.0.0' });
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });
});
