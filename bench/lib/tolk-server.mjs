/** tolk itself, as its users run it: `node bin/tolk.js serve` and `node bin/tolk.js users create`. */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { freePort, REPO_ROOT, startNodeProcess } from './processes.mjs';

const run = promisify(execFile);
const SETTLE_MS = 250;

/** A user whose daily quota never stops the bench; returns `{ id, email, apiKey }` (the CLI's output). */
export async function createBenchUser(databaseUrl, email, env = {}) {
  const args = ['bin/tolk.js', 'users', 'create', '--email', email, '--first-name', 'Bench', '--last-name', 'Runner', '--daily-quota', '100000000'];
  const { stdout } = await run(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}

/**
 * Collects the server's warn/error log records (pino JSON, level ≥ 40; 5xx answers are logged there
 * with their stack) and, apart, any output that is not a log record (a crash's stack, Node warnings).
 */
export class ServerLog {
  records = new Map();
  rawLines = 0;
  raw = new Set();

  /** Takes one output line of the server. */
  take(line) {
    let record = null;
    try {
      record = JSON.parse(line);
    } catch {
      this.rawLines += 1;
      if (this.raw.size < 40 && line.trim() !== '') this.raw.add(line);
      return;
    }
    if (typeof record?.level !== 'number' || record.level < 40) return;
    const text = describe(record);
    if (this.records.has(text) || this.records.size < 50) this.records.set(text, (this.records.get(text) ?? 0) + 1);
    else this.records.set('(other warn/error records)', (this.records.get('(other warn/error records)') ?? 0) + 1);
  }
}

function describe(record) {
  const level = record.level >= 50 ? 'error' : 'warn';
  const request = record.req ? ` ${record.req.method} ${record.req.url}` : '';
  const status = record.res?.statusCode ? ` → ${record.res.statusCode}` : '';
  const error = record.err ? ` | ${record.err.type ?? ''}: ${record.err.message ?? ''}${record.err.stack ? ` @ ${record.err.stack.split('\n')[1]?.trim()}` : ''}` : '';
  return `${level}${request}${status}: ${record.msg ?? ''}${error}`.slice(0, 600);
}

/** Starts `tolk serve` on a free loopback port over `databaseUrl`; with `cpuProfDir`, its profile is `<cpuProfName>.cpuprofile` there when named. */
export async function startTolk({ databaseUrl, cleanup, log, cpuProfDir, cpuProfName }) {
  const port = await freePort();
  const profile = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`, ...(cpuProfName ? [`--cpu-prof-name=${cpuProfName}.cpuprofile`] : [])] : [];
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });
  return startNodeProcess({
    name: 'tolk serve',
    args: [...profile, 'bin/tolk.js', 'serve'],
    // the import-large scenario sends the large project's json export, which may pass the default 64 MiB
    env: { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', IMPORT_MAX_BYTES: String(512 * 1024 * 1024) },
    port,
    readyPath: '/api/v1/version',
    cleanup,
    onLine: (line) => log.take(line),
  });
}

/**
 * Keeps one tolk server running over the store. A server found dead is recorded (when, exit code, its
 * last output) and replaced, so one crash is reported as such instead of failing every later scenario.
 */
export class TolkKeeper {
  crashes = [];
  #options;
  server = null;

  constructor(options) {
    this.#options = options;
  }

  /** Starts the first server (`profileName`: its CPU profile's file name, when profiling). */
  async start(profileName) {
    this.server = await startTolk({ ...this.#options, cpuProfName: profileName });
  }

  /** The URL of a live server; replaces a dead one first, recording the crash as noticed `when`. */
  async url(when) {
    // A crash caused by the load's last requests (clients gone mid-answer) takes a moment to show.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const exit = this.server.exitStatus();
    if (exit) {
      this.crashes.push({ when, code: exit.code, signal: exit.signal, output: this.server.outputTail() });
      await this.start();
    }
    return this.server.url;
  }

  /**
   * Replaces the live server with a fresh one (a single-shot measurement of its own memory starts from
   * a clean heap; a profiled scenario gets a profile of its own, named `profileName`).
   */
  async restart(profileName) {
    await this.server?.stop();
    await this.start(profileName);
  }

  /** Stops the current server. */
  async stop() {
    await this.server?.stop();
  }
}
