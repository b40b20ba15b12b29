/** The only reader of process.env: parsed once, frozen, passed down. */
import { isIP } from 'node:net';

/**
 * Whose word tolk takes for the client's address and scheme (X-Forwarded-For/-Proto/-Host): nobody
 * (false), the nearest N hops (the proxies in front of tolk), or peers at these addresses/CIDRs.
 */
export type TrustProxy = false | number | readonly string[];

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly logLevel: string;
  /** when set, GET /metrics needs `Authorization: Bearer <token>`; unset, only loopback clients get it */
  readonly metricsToken: string | undefined;
  /** METRICS_PUBLIC=true: GET /metrics answers anyone, like /healthz */
  readonly metricsPublic: boolean;
  /** TOLK_SIGNUP=closed: only the CLI creates users */
  readonly signUpOpen: boolean;
  /** TRUST_PROXY: the proxies whose X-Forwarded-Proto (Secure cookies) and -For (throttling) count; `true` is the nearest hop */
  readonly trustProxy: TrustProxy;
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
  /** PUBLIC_URL: the server's address as users reach it (no trailing slash), which mailed and invitation links start with */
  readonly publicUrl: string | undefined;
  /** SMTP_URL (and SMTP_FROM): sign-up mails a verification link; unset, no mail is sent */
  readonly smtp: { readonly url: string; readonly from: string } | undefined;
  /** HISTORY_RETENTION_DAYS: history older than this is pruned (each object's newest change kept); unset: kept for ever */
  readonly historyRetentionDays: number | undefined;
}

/** A variable that must be one of two words, the first being the default. */
function oneOf(env: NodeJS.ProcessEnv, name: string, [fallback, other]: [string, string]): boolean {
  const value = env[name] || fallback;
  if (value !== fallback && value !== other) throw new Error(`${name} must be ${fallback} or ${other}, got "${value}"`);
  return value === fallback;
}

/** proxy-addr's named ranges, which Fastify's trustProxy lists take too. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR (`10.0.0.0/8`, `fd00::/8`) or a named range, as Fastify's trustProxy list takes them. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/**
 * TRUST_PROXY: false (the default) trusts no proxy; `true` the nearest hop only, the proxy in front
 * of tolk (never the client-written rest of X-Forwarded-For); a number that many hops; else a
 * comma-separated list of the proxies' addresses or CIDRs.
 */
function trustProxyOf(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return 1;
  if (/^\d{1,3}$/.test(text)) return Number(text) === 0 ? false : Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.every(isProxyAddress)) return Object.freeze(entries);
  throw new Error(`TRUST_PROXY must be false, true (the nearest proxy), a hop count or a comma-separated list of proxy addresses/CIDRs, got "${value}"`);
}

/**
 * PUBLIC_URL and SMTP_URL/SMTP_FROM. Mailed links need PUBLIC_URL: taken from a request's Host, a
 * stranger could have a verification link for someone else's address sent to a host of theirs.
 */
function mailOf(env: NodeJS.ProcessEnv): Pick<Config, 'publicUrl' | 'smtp'> {
  const publicUrl = env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined;
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(publicUrl)) throw new Error(`PUBLIC_URL must be an http(s) URL, got "${env.PUBLIC_URL}"`);
  if (!env.SMTP_URL) return { publicUrl, smtp: undefined };
  if (!/^smtps?:\/\//.test(env.SMTP_URL)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  if (publicUrl === undefined) throw new Error('SMTP_URL needs PUBLIC_URL (the address users reach tolk at), which the mailed links start with');
  return { publicUrl, smtp: { url: env.SMTP_URL, from: env.SMTP_FROM || `tolk <no-reply@${new URL(publicUrl).hostname}>` } };
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
  const retention = env.HISTORY_RETENTION_DAYS;
  const historyRetentionDays = retention === undefined || retention === '' ? undefined : Number(retention);
  if (historyRetentionDays !== undefined && (!/^[1-9][0-9]*$/.test(retention!) || historyRetentionDays > 36_500)) {
    throw new Error(`HISTORY_RETENTION_DAYS must be a whole number of days 1–36500 (unset keeps history for ever), got "${retention}"`);
  }
  const metricsPublic = !oneOf(env, 'METRICS_PUBLIC', ['false', 'true']);
  if (metricsPublic && env.METRICS_TOKEN) throw new Error('METRICS_PUBLIC=true and METRICS_TOKEN contradict each other: set one of them');
  return Object.freeze({
    ...mailOf(env),
    importMaxBytes,
    historyRetentionDays,
    shutdownDrainMs,
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || 'sqlite:./data/tolk.db',
    logLevel,
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPublic,
    signUpOpen: oneOf(env, 'TOLK_SIGNUP', ['open', 'closed']),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    namedStatements: oneOf(env, 'DATABASE_NAMED_STATEMENTS', ['true', 'false']),
  });
}
