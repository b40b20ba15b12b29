/**
 * A real fleet (`npm run cluster`): three `tolk serve` instances on PgBouncer in transaction pooling
 * mode, behind HAProxy, on a PostgreSQL database of their own. Through it: the quota stays exact
 * across instances, a revoked key is refused at once by every instance, every instance gives the same
 * ETag, an instance killed (SIGKILL) under a load of idempotent requests costs no acknowledged write
 * and no 5xx, a rolling restart fails no request, and stopping the fleet leaves nothing running. Its
 * trust settings: PgBouncer lets in tolk's own role with its password alone (SCRAM), the fleet's
 * secrets are its owner's alone, and a client cannot dodge the sign-in throttle through HAProxy by
 * writing X-Forwarded-For.
 *
 * Needs TEST_DATABASE_URL and Debian's pgbouncer and haproxy; skipped without them, except in CI
 * (TOLK_FLEET_REQUIRED=1, set by .ci/run, which installs both).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, sleep } from '../helpers/access.js';
import { runCli } from '../helpers/cli.js';
import { TEST_DATABASE_URL } from '../helpers/dialects.js';

const CLUSTER = fileURLToPath(new URL('../../scripts/cluster.mjs', import.meta.url));
const hasCommand = (command: string) => spawnSync('sh', ['-c', `command -v ${command} || test -x /usr/sbin/${command}`]).status === 0;
const available = Boolean(TEST_DATABASE_URL) && hasCommand('pgbouncer') && hasCommand('haproxy');
if (!available && process.env.TOLK_FLEET_REQUIRED === '1') throw new Error('the fleet test needs TEST_DATABASE_URL, pgbouncer and haproxy (.ci/run installs them)');

interface Announcement {
  url: string;
  instances: { name: string; url: string; pid: number }[];
  pgbouncer: { port: number; pid: number; user: string; databaseUrlFile: string };
  haproxy: { pid: number };
  dir: string;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!available)('a fleet of three instances behind HAProxy and PgBouncer (transaction pooling)', () => {
  const database = `tolk_fleet_${randomBytes(4).toString('hex')}`;
  let cluster: ChildProcess;
  const announcements: Announcement[] = [];
  let fleet: Announcement;
  /** DATABASE_URL through PgBouncer, for the CLI */
  let pooled: string;
  let key: string;
  let email: string;

  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };

  const cli = async (args: string[]) => {
    const result = await runCli(pooled, args);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };

  /** A request's status, or 0 when it got no answer at all (a connection closed under it). */
  const statusOf = (response: Promise<Response>) => response.then((answer) => answer.status, () => 0);

  const call = (base: string, method: string, path: string, apiKey: string, body?: unknown) =>
    fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = async (response: Promise<Response>): Promise<any> => (await response).json();

  beforeAll(async () => {
    await admin(`create database ${database}`);
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${database}`;
    url.search = '';
    const port = await freePort();
    cluster = spawn(process.execPath, [CLUSTER, '--instances', '3', '--port', String(port)], { env: { ...process.env, DATABASE_URL: url.toString() }, stdio: ['ignore', 'pipe', 'pipe'] });
    let buffered = '';
    let errors = '';
    cluster.stderr!.on('data', (chunk) => (errors += chunk));
    cluster.stdout!.on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        announcements.push(JSON.parse(buffered.slice(0, newline)));
        buffered = buffered.slice(newline + 1);
      }
    });
    const deadline = Date.now() + 90_000;
    while (announcements.length === 0) {
      if (cluster.exitCode !== null || Date.now() > deadline) throw new Error(`the cluster did not start:\n${errors}`);
      await sleep(100);
    }
    fleet = announcements[0]!;
    // the instances' own DATABASE_URL: tolk's role, through PgBouncer
    pooled = readFileSync(fleet.pgbouncer.databaseUrlFile, 'utf8').trim();
    process.env.DATABASE_NAMED_STATEMENTS = 'false'; // for the CLI through PgBouncer (runCli passes the environment on)
    email = `fleet-${randomBytes(3).toString('hex')}@example.com`;
    key = (await cli(['users', 'create', '--email', email, '--first-name', 'Fleet', '--last-name', 'Test', '--daily-quota', '100000'])).apiKey;
  }, 120_000);

  afterAll(async () => {
    if (cluster && cluster.exitCode === null) {
      const exited = new Promise((resolve) => cluster.once('exit', resolve));
      cluster.kill('SIGTERM');
      await exited;
    }
    delete process.env.DATABASE_NAMED_STATEMENTS;
    await admin(`drop database if exists ${database} with (force)`);
    if (fleet) await admin(`drop role if exists "${fleet.pgbouncer.user}"`);
  }, 60_000);

  it('counts the daily quota exactly across the instances', async () => {
    const limited = await cli(['users', 'create', '--email', `quota-${email}`, '--first-name', 'Q', '--last-name', 'T', '--daily-quota', '30']);
    // 60 requests at once, spread over the balancer and each instance directly
    const bases = [fleet.url, ...fleet.instances.map((instance) => instance.url)];
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => call(bases[i % bases.length]!, 'GET', '/projects', limited.apiKey).then((response) => response.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
  });

  it('refuses a revoked key at once on every instance', async () => {
    const second = await cli(['keys', 'create', '--email', email, '--name', 'to revoke']);
    for (const instance of fleet.instances) expect((await call(instance.url, 'GET', '/projects', second.apiKey)).status).toBe(200);
    await cli(['keys', 'revoke', '--id', second.id]);
    for (const instance of fleet.instances) expect((await call(instance.url, 'GET', '/projects', second.apiKey)).status).toBe(401);
  });

  it('gives the same ETag from every instance, and the same new one right after a write', async () => {
    const project = await json(call(fleet.url, 'POST', '/projects', key, { name: 'Fleet ETags', baseLanguage: 'en', translationLanguages: ['de'] }));
    const group = await json(call(fleet.url, 'POST', `/projects/${project.id}/groups`, key, { technicalName: 'home', displayName: 'Home' }));
    await call(fleet.url, 'POST', `/groups/${group.id}/entries`, key, { technicalName: 'title', baseTerm: 'Home' });
    const etags = async () => Promise.all(fleet.instances.map(async (instance) => (await call(instance.url, 'GET', `/projects/${project.id}/export/json`, key)).headers.get('etag')));
    const before = await etags();
    expect(new Set(before).size).toBe(1);
    await call(fleet.instances[0]!.url, 'POST', `/groups/${group.id}/entries`, key, { technicalName: 'subtitle', baseTerm: 'Welcome' });
    const after = await etags();
    expect(new Set(after).size).toBe(1);
    expect(after[0]).not.toBe(before[0]);
  });

  it('loses no acknowledged write and shows no 5xx when an instance is killed (SIGKILL) under load', async () => {
    const project = await json(call(fleet.url, 'POST', '/projects', key, { name: 'Fleet kill', baseLanguage: 'en', translationLanguages: ['de'] }));
    const group = await json(call(fleet.url, 'POST', `/projects/${project.id}/groups`, key, { technicalName: 'home', displayName: 'Home' }));
    const entries: { id: string }[] = [];
    for (let i = 0; i < 8; i += 1) entries.push(await json(call(fleet.url, 'POST', `/groups/${group.id}/entries`, key, { technicalName: `text${i}`, baseTerm: `Text ${i}` })));
    // Each client writes its entry's translation again and again (PUT: idempotent, so the balancer may
    // retry it elsewhere) and reads it back; what it was last told was written must be what is stored.
    const acknowledged = new Map<string, string>();
    const statuses: number[] = [];
    let running = true;
    const client = async (entry: { id: string }) => {
      for (let round = 0; running; round += 1) {
        const text = `Text ${round}`;
        const put = await statusOf(call(fleet.url, 'PUT', `/entries/${entry.id}/translations`, key, { language: 'de', translation: text }));
        statuses.push(put);
        if (put === 200) acknowledged.set(entry.id, text);
        statuses.push(await statusOf(call(fleet.url, 'GET', `/entries/${entry.id}`, key)));
      }
    };
    const clients = Promise.all(entries.map(client));
    await sleep(1500);
    const victim = announcements.at(-1)!.instances[1]!;
    process.kill(victim.pid, 'SIGKILL');
    await sleep(3000);
    running = false;
    await clients;
    expect(statuses.filter((status) => status >= 500 || status === 0), `statuses: ${[...new Set(statuses)].join(', ')}`).toEqual([]);
    expect(statuses.length).toBeGreaterThan(50);
    for (const entry of entries) {
      const stored = await json(call(fleet.url, 'GET', `/entries/${entry.id}`, key));
      expect(stored.translations.find((translation: { language: string }) => translation.language === 'de')?.translation).toBe(acknowledged.get(entry.id));
    }
    // the cluster started the killed instance again
    const deadline = Date.now() + 30_000;
    while (!announcements.at(-1)!.instances.some((instance) => instance.name === victim.name && instance.pid !== victim.pid) && Date.now() < deadline) await sleep(100);
    expect(announcements.at(-1)!.instances.find((instance) => instance.name === victim.name)!.pid).not.toBe(victim.pid);
  }, 60_000);

  it('fails no request during a rolling restart (SIGHUP), creates included', async () => {
    const project = await json(call(fleet.url, 'POST', '/projects', key, { name: 'Fleet rolling', baseLanguage: 'en', translationLanguages: ['de'] }));
    const group = await json(call(fleet.url, 'POST', `/projects/${project.id}/groups`, key, { technicalName: 'home', displayName: 'Home' }));
    const before = announcements.at(-1)!.instances.map((instance) => instance.pid);
    const seen = announcements.length;
    const statuses: number[] = [];
    const created: string[] = [];
    let running = true;
    const client = async (worker: number) => {
      for (let i = 0; running; i += 1) {
        const response = await call(fleet.url, 'POST', `/groups/${group.id}/entries`, key, { technicalName: `w${worker}n${i}`, baseTerm: `Worker ${worker}, ${i}` }).catch(() => null);
        statuses.push(response?.status ?? 0);
        if (response?.status === 200) created.push(((await response.json()) as { id: string }).id);
        statuses.push(await statusOf(call(fleet.url, 'GET', `/projects/${project.id}`, key)));
      }
    };
    const clients = Promise.all([0, 1, 2, 3].map(client));
    cluster.kill('SIGHUP');
    // one announcement per restarted instance
    const deadline = Date.now() + 90_000;
    while (announcements.length < seen + 3 && Date.now() < deadline) await sleep(100);
    running = false;
    await clients;
    const after = announcements.at(-1)!.instances.map((instance) => instance.pid);
    for (const pid of before) expect(after).not.toContain(pid);
    expect(statuses.filter((status) => status !== 200), `statuses: ${[...new Set(statuses)].join(', ')}`).toEqual([]);
    expect(created.length).toBeGreaterThan(10);
    // every acknowledged create is there
    const listed = await json(call(fleet.url, 'GET', `/groups/${group.id}/entries?limit=100`, key));
    expect(listed.total).toBe(created.length);
  }, 120_000);

  it('lets into PgBouncer only tolk\'s own role, not a superuser, and only with its password (SCRAM)', async () => {
    const connect = async (user: string, password: string) => {
      const client = new pg.Client({ host: '127.0.0.1', port: fleet.pgbouncer.port, database, user, password });
      await client.connect();
      try {
        return (await client.query('select current_user as "user", rolsuper as "superuser" from pg_roles where rolname = current_user')).rows[0];
      } finally {
        await client.end();
      }
    };
    const own = new URL(pooled);
    expect(own.username).toBe(fleet.pgbouncer.user);
    expect(await connect(own.username, decodeURIComponent(own.password))).toEqual({ user: fleet.pgbouncer.user, superuser: false });
    await expect(connect(own.username, 'wrong password')).rejects.toThrow(/password authentication failed|SASL/i);
    await expect(connect(own.username, '')).rejects.toThrow();
    const superuser = decodeURIComponent(new URL(TEST_DATABASE_URL!).username || 'postgres');
    await expect(connect(superuser, 'any password')).rejects.toThrow();
  });

  it('keeps the fleet\'s folder 0700 and its secrets 0600, the password itself stored nowhere but the instances\' URL', () => {
    const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
    expect(mode(fleet.dir)).toBe('700');
    for (const file of ['userlist.txt', 'pgbouncer.ini', 'database-url']) expect(mode(join(fleet.dir, file)), file).toBe('600');
    const userlist = readFileSync(join(fleet.dir, 'userlist.txt'), 'utf8');
    expect(userlist).toMatch(/^"[a-z0-9_]+" "SCRAM-SHA-256\$4096:/);
    expect(userlist).not.toContain(decodeURIComponent(new URL(pooled).password));
  });

  it('counts failed sign-ins through HAProxy against the client\'s address, whatever X-Forwarded-For it writes', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 30 && !statuses.includes(429); n += 1) {
      const response = await fetch(`${fleet.url}/api/v1/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${n}.${n + 1}`, forwarded: `for=198.18.${n}.${n + 1}` },
        body: JSON.stringify({ email: `nobody-${n}-${randomBytes(3).toString('hex')}@example.com`, password: 'wrong password' }),
      });
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status !== 401 && status !== 429), statuses.join(' ')).toEqual([]);
    expect(statuses, `${statuses.length} attempts, every new X-Forwarded-For let through`).toContain(429);
  }, 120_000);

  it('leaves nothing running once stopped', async () => {
    const last = announcements.at(-1)!;
    const pids = [last.pgbouncer.pid, last.haproxy.pid, ...last.instances.map((instance) => instance.pid)];
    const exited = new Promise((resolve) => cluster.once('exit', resolve));
    cluster.kill('SIGTERM');
    await exited;
    expect(cluster.exitCode).toBe(0);
    await sleep(200);
    expect(pids.filter(isAlive)).toEqual([]);
  }, 60_000);
});
