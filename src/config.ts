/** The only reader of process.env: parsed once, frozen, passed down. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly logLevel: string;
  /** when set, GET /metrics needs `Authorization: Bearer <token>`; unset, it is public like /healthz */
  readonly metricsToken: string | undefined;
  /** TOLK_SIGNUP=closed: only the CLI creates users */
  readonly signUpOpen: boolean;
  /** TRUST_PROXY=true: behind a reverse proxy, honour X-Forwarded-Proto (Secure cookies) and -For (throttling) */
  readonly trustProxy: boolean;
  /** IMPORT_MAX_BYTES: the largest import body (413 beyond) */
  readonly importMaxBytes: number;
  /**
   * DATABASE_NAMED_STATEMENTS=false: PostgreSQL runs every query unnamed. Needed behind a pooler in
   * transaction mode that does not carry named statements across its server connections (PgBouncer
   * before 1.21, Debian 12's 1.18 included); ignored on SQLite.
   */
  readonly namedStatements: boolean;
  /**
   * SHUTDOWN_DRAIN_MS: on SIGTERM, how long /readyz answers 503 while requests are still served,
   * before the listener closes: a load balancer's health checks take the instance out of rotation
   * first, and no request reaches it as it closes
   */
  readonly shutdownDrainMs: number;
}

/** A variable that must be one of two words, the first being the default. */
function oneOf(env: NodeJS.ProcessEnv, name: string, [fallback, other]: [string, string]): boolean {
  const value = env[name] || fallback;
  if (value !== fallback && value !== other) throw new Error(`${name} must be ${fallback} or ${other}, got "${value}"`);
  return value === fallback;
}

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** Reads the contract's environment variables; throws a one-line reason on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer 0–65535, got "${env.PORT}"`);
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.has(logLevel)) throw new Error(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}`);
  const importMaxBytes = env.IMPORT_MAX_BYTES === undefined || env.IMPORT_MAX_BYTES === '' ? 64 * 1024 * 1024 : Number(env.IMPORT_MAX_BYTES);
  if (!Number.isSafeInteger(importMaxBytes) || importMaxBytes < 1) throw new Error(`IMPORT_MAX_BYTES must be a positive integer (bytes), got "${env.IMPORT_MAX_BYTES}"`);
  const shutdownDrainMs = env.SHUTDOWN_DRAIN_MS === undefined || env.SHUTDOWN_DRAIN_MS === '' ? 0 : Number(env.SHUTDOWN_DRAIN_MS);
  if (!Number.isSafeInteger(shutdownDrainMs) || shutdownDrainMs < 0 || shutdownDrainMs > 600_000) {
    throw new Error(`SHUTDOWN_DRAIN_MS must be a whole number of milliseconds 0–600000, got "${env.SHUTDOWN_DRAIN_MS}"`);
  }
  return Object.freeze({
    importMaxBytes,
    shutdownDrainMs,
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || 'sqlite:./data/tolk.db',
    logLevel,
    metricsToken: env.METRICS_TOKEN || undefined,
    signUpOpen: oneOf(env, 'TOLK_SIGNUP', ['open', 'closed']),
    trustProxy: !oneOf(env, 'TRUST_PROXY', ['false', 'true']),
    namedStatements: oneOf(env, 'DATABASE_NAMED_STATEMENTS', ['true', 'false']),
  });
}
