#!/usr/bin/env node
/**
 * A local fleet of tolk instances on PostgreSQL, as in production (README "Running at scale"):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tolk npm run cluster -- --instances 3 --port 8090
 *
 * PgBouncer in transaction pooling mode in front of DATABASE_URL's server, N `tolk serve` instances
 * on PgBouncer, and HAProxy in front of them (health checks on /readyz, retries of requests that
 * reached no instance) on --port. The configuration files are deploy/pgbouncer.ini and
 * deploy/haproxy.cfg, filled in. Debian's pgbouncer and haproxy packages are installed when missing.
 *
 * DATABASE_URL is an administrator of the server (it makes a role): the instances do not use it. They
 * sign in to PgBouncer (SCRAM) as `<database>_tolk`, a role of their own that owns the database and
 * nothing else, with a new random password each start; its SCRAM secret is PgBouncer's auth_file. The
 * fleet's folder is 0700 and its files 0600; `database-url` in it is the instances' DATABASE_URL.
 *
 * Prints one JSON line when the fleet answers: {"url", "instances": [{"name", "pid", "url"}], ...},
 * and again after any instance was (re)started. An instance that dies is started again; SIGHUP
 * restarts the instances one after another (a rolling restart); SIGTERM or SIGINT stops everything
 * and removes the fleet's files.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TOLK_BIN = join(ROOT, 'bin', 'tolk.js');
const READY_TIMEOUT_MS = 60_000;

function fail(message) {
  process.stderr.write(`cluster: ${message}\n`);
  process.exit(2);
}

function parseArguments(argv) {
  const options = { instances: 3, port: 8090 };
  for (let i = 0; i < argv.length; i += 1) {
    const [name, inline] = argv[i].split('=', 2);
    const value = inline ?? argv[(i += 1)];
    if (name === '--instances' || name === '--port') {
      const number = Number(value);
      if (!Number.isInteger(number) || number < 1 || number > 65_535) fail(`${name} takes a whole number, got "${value}"`);
      options[name.slice(2)] = number;
    } else fail(`unknown option "${argv[i]}" (usage: npm run cluster -- [--instances N] [--port P])`);
  }
  if (options.instances > 32) fail('--instances: at most 32');
  return options;
}

/** Installs Debian's packages for the commands missing (as root), or says how to. */
function ensureInstalled(commands) {
  const missing = commands.filter((command) => spawnSync('sh', ['-c', `command -v ${command} || test -x /usr/sbin/${command}`]).status !== 0);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) fail(`missing ${missing.join(' and ')}: apt-get install ${missing.join(' ')}`);
  process.stderr.write(`cluster: installing ${missing.join(', ')} (Debian packages)…\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let result = spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env });
  if (result.status !== 0) result = spawnSync('sh', ['-c', `apt-get update -qq && apt-get install -y -qq ${missing.join(' ')}`], { stdio: 'inherit', env });
  if (result.status !== 0) fail(`could not install ${missing.join(', ')}`);
}

/** A local user's uid and gid (`id`), to hand it files. */
function userIds(name) {
  const id = (flag) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  const ids = { uid: id('-u'), gid: id('-g') };
  if (!Number.isInteger(ids.uid) || !Number.isInteger(ids.gid) || spawnSync('id', [name]).status !== 0) fail(`no user ${name} to run PgBouncer as`);
  return ids;
}

async function freePort() {
  const probe = createServer();
  await new Promise((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check()` resolves true, polling; rejects after the timeout with `what`. */
async function waitFor(what, check, timeoutMs = READY_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s`);
}

const answersReady = (url) => fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then((response) => response.status === 200);

function portAccepts(port) {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

/** The SCRAM-SHA-256 secret of a password, as PostgreSQL stores it (RFC 5802/7677; 4096 iterations, its default). */
function scramSecret(password, iterations = 4096) {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const hmac = (key, text) => createHmac('sha256', key).update(text).digest();
  const storedKey = createHash('sha256').update(hmac(salted, 'Client Key')).digest();
  const serverKey = hmac(salted, 'Server Key');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

/** Relations of the schema that the role must own to migrate them (a database migrated before by someone else). */
const OWNED_KINDS = { r: 'table', p: 'table', S: 'sequence', v: 'view', m: 'materialized view' };

/** A file of the fleet's folder, readable by its owner alone. */
function writePrivateFile(path, text) {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

const fill = (template, values) => template.replace(/@([A-Z_]+)@/g, (match, name) => (name in values ? String(values[name]) : match));

class Fleet {
  constructor(options, databaseUrl) {
    this.options = options;
    this.databaseUrl = new URL(databaseUrl);
    // mkdtemp makes it 0700; chmod says so whatever happens to it before.
    this.dir = mkdtempSync(join(tmpdir(), 'tolk-cluster-'));
    chmodSync(this.dir, 0o700);
    this.instances = [];
    this.stopping = false;
    this.children = new Set();
  }

  spawnChild(command, args, options = {}) {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    child.stderr?.on('data', (chunk) => process.stderr.write(chunk));
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /**
   * The instances' own role: it may log in, owns the fleet's database (so that it can migrate it) and
   * what the schema holds, and nothing else: no superuser, no CREATEDB or CREATEROLE. A new random
   * password each start, set as its SCRAM secret (whatever password_encryption says).
   */
  async createDatabaseUser() {
    const database = decodeURIComponent(this.databaseUrl.pathname.slice(1)) || decodeURIComponent(this.databaseUrl.username || 'postgres');
    this.databaseUser = `${database}_tolk`.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 63);
    this.databasePassword = randomBytes(24).toString('base64url');
    this.databaseSecret = scramSecret(this.databasePassword);
    const client = new pg.Client({ connectionString: this.databaseUrl.toString() });
    await client.connect();
    try {
      const role = client.escapeIdentifier(this.databaseUser);
      const exists = (await client.query('select 1 from pg_roles where rolname = $1', [this.databaseUser])).rowCount > 0;
      const attributes = 'login nosuperuser nocreatedb nocreaterole noreplication nobypassrls';
      await client.query(`${exists ? 'alter' : 'create'} role ${role} with ${attributes} password ${client.escapeLiteral(this.databaseSecret)}`);
      await client.query(`alter database ${client.escapeIdentifier(database)} owner to ${role}`);
      await client.query(`grant usage, create on schema public to ${role}`);
      const relations = await client.query(
        `select c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = any($1) and pg_get_userbyid(c.relowner) <> $2`,
        [Object.keys(OWNED_KINDS), this.databaseUser],
      );
      for (const { relname, relkind } of relations.rows) {
        // a sequence owned by a table changes owner with it, and may not be altered on its own
        await client.query(`alter ${OWNED_KINDS[relkind]} public.${client.escapeIdentifier(relname)} owner to ${role}`).catch((error) => {
          if (relkind !== 'S') throw error;
        });
      }
    } finally {
      await client.end();
    }
  }

  async startPgBouncer() {
    this.pgbouncerPort = await freePort();
    await this.createDatabaseUser();
    // The SCRAM secret, never the password: PgBouncer checks clients with it (and, where the server
    // asks for SCRAM too, signs in to it with the client's proof).
    writePrivateFile(join(this.dir, 'userlist.txt'), `"${this.databaseUser}" "${this.databaseSecret}"\n`);
    const template = readFileSync(join(ROOT, 'deploy', 'pgbouncer.ini'), 'utf8');
    const config = join(this.dir, 'pgbouncer.ini');
    writePrivateFile(config, fill(template, { PG_HOST: this.databaseUrl.hostname || '127.0.0.1', PG_PORT: this.databaseUrl.port || 5432, LISTEN_PORT: this.pgbouncerPort, DIR: this.dir }));
    const fleetUrl = new URL(this.databaseUrl);
    fleetUrl.hostname = '127.0.0.1';
    fleetUrl.port = String(this.pgbouncerPort);
    fleetUrl.username = this.databaseUser;
    fleetUrl.password = this.databasePassword;
    this.fleetDatabaseUrl = fleetUrl.toString();
    writePrivateFile(join(this.dir, 'database-url'), `${this.fleetDatabaseUrl}\n`);
    // PgBouncer refuses to run as root: it switches to the postgres user, who then owns the folder
    // (still 0700) and its files (0600), and writes its pid file and log there.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      const owner = userIds('postgres');
      chownSync(this.dir, owner.uid, owner.gid);
      for (const file of readdirSync(this.dir)) chownSync(join(this.dir, file), owner.uid, owner.gid);
    }
    this.pgbouncer = this.spawnChild('pgbouncer', [...(asRoot ? ['-u', 'postgres'] : []), config]);
    await waitFor('pgbouncer', () => portAccepts(this.pgbouncerPort));
  }

  startInstance(instance) {
    instance.exited = false;
    instance.child = this.spawnChild(process.execPath, [TOLK_BIN, 'serve'], {
      env: {
        ...process.env,
        PORT: String(instance.port),
        HOST: '127.0.0.1',
        DATABASE_URL: this.fleetDatabaseUrl,
        DATABASE_NAMED_STATEMENTS: 'false',
        // HAProxy's checks (fall 2 × inter 500 ms) take a stopping instance out before it closes
        SHUTDOWN_DRAIN_MS: '1500',
        // HAProxy's address, and no other: what it puts in X-Forwarded-For is the client's address
        // (deploy/haproxy.cfg drops what the client sent); anyone else's X-Forwarded-* is ignored.
        TRUST_PROXY: '127.0.0.1',
        LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
      },
    });
    instance.child.once('exit', (code, signal) => {
      instance.exited = true;
      if (this.stopping || instance.restarting) return;
      process.stderr.write(`cluster: ${instance.name} exited (${signal ?? code}); starting it again\n`);
      void this.restart(instance, false).catch((error) => process.stderr.write(`cluster: ${error.message}\n`));
    });
    return waitFor(instance.name, () => answersReady(instance.url));
  }

  async startInstances() {
    for (let i = 1; i <= this.options.instances; i += 1) {
      const port = await freePort();
      this.instances.push({ name: `tolk${i}`, port, url: `http://127.0.0.1:${port}` });
    }
    // The first migrates the database alone; the others find it up to date.
    await this.startInstance(this.instances[0]);
    await Promise.all(this.instances.slice(1).map((instance) => this.startInstance(instance)));
  }

  async startHaproxy() {
    const template = readFileSync(join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8');
    const servers = this.instances.map((instance) => `    server ${instance.name} 127.0.0.1:${instance.port} check`).join('\n');
    const config = join(this.dir, 'haproxy.cfg');
    writeFileSync(config, fill(template, { BIND: `127.0.0.1:${this.options.port}`, SERVERS: servers }));
    this.haproxy = this.spawnChild('haproxy', ['-f', config, '-db']);
    this.url = `http://127.0.0.1:${this.options.port}`;
    await waitFor('haproxy', () => answersReady(this.url));
  }

  /** Stops an instance (gracefully, unless it is gone already) and starts it again. */
  async restart(instance, graceful = true) {
    instance.restarting = true;
    try {
      if (graceful && !instance.exited) {
        const exited = new Promise((resolve) => instance.child.once('exit', resolve));
        instance.child.kill('SIGTERM');
        await exited;
      }
      await this.startInstance(instance);
    } finally {
      instance.restarting = false;
    }
    this.announce();
  }

  async rollingRestart() {
    for (const instance of this.instances) {
      await this.restart(instance);
      // HAProxy's health check sees it up again (rise 2 × inter 500 ms) before the next goes down.
      await sleep(1500);
    }
  }

  announce() {
    const line = {
      url: this.url,
      instances: this.instances.map(({ name, url, child }) => ({ name, url, pid: child.pid })),
      pgbouncer: { port: this.pgbouncerPort, pid: this.pgbouncer.pid, user: this.databaseUser, databaseUrlFile: join(this.dir, 'database-url') },
      haproxy: { pid: this.haproxy.pid },
      dir: this.dir,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }

  async stop() {
    this.stopping = true;
    const exits = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)));
    const stopAll = async (children, signal) => {
      for (const child of children) child.kill(signal);
      await Promise.race([Promise.all(children.map(exits)), sleep(12_000)]);
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    if (this.haproxy) await stopAll([this.haproxy], 'SIGTERM');
    await stopAll(this.instances.filter((instance) => instance.child).map((instance) => instance.child), 'SIGTERM');
    if (this.pgbouncer) await stopAll([this.pgbouncer], 'SIGINT');
    for (const child of this.children) child.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseUrl)) fail('DATABASE_URL must name the PostgreSQL database, e.g. postgres://postgres@127.0.0.1:5432/tolk');
  if (new URL(databaseUrl).searchParams.has('options')) fail('DATABASE_URL: PgBouncer does not pass on the options parameter; use a database of its own instead of a schema');
  ensureInstalled(['pgbouncer', 'haproxy']);
  const fleet = new Fleet(options, databaseUrl);
  let stopping = null;
  const stop = (code) => {
    stopping ??= fleet.stop().then(() => process.exit(code));
    return stopping;
  };
  process.once('SIGTERM', () => void stop(0));
  process.once('SIGINT', () => void stop(0));
  process.on('exit', () => {
    for (const child of fleet.children) child.kill('SIGKILL');
  });
  try {
    await fleet.startPgBouncer();
    await fleet.startInstances();
    await fleet.startHaproxy();
  } catch (error) {
    process.stderr.write(`cluster: ${error.message}\n`);
    await stop(1);
    return;
  }
  fleet.announce();
  process.stderr.write(`cluster: ${options.instances} instances behind ${fleet.url} (PgBouncer on port ${fleet.pgbouncerPort}); SIGHUP restarts them one by one, SIGTERM stops all\n`);
  let rolling = null;
  process.on('SIGHUP', () => {
    rolling ??= fleet.rollingRestart().finally(() => (rolling = null));
  });
}

await main();
