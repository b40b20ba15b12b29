/**
 * GET /metrics in the Prometheus text format: requests per route pattern, export durations, the
 * database pool and the process. Outside /api/v1 (no API key, never counted against a quota), and
 * not public: it tells how many sign-ins fail and where the server is slow. With a metrics token
 * every scrape must present it; without one only a client on this machine gets it (loopback), unless
 * METRICS_PUBLIC=true makes it public like /healthz.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError, forbidden } from '../../errors.js';
import type { PoolStats, Store } from '../../store/open-store.js';
import { observeExports } from './export-metrics.js';
import { processRegistry } from './process-metrics.js';

export const METRICS_PATH = '/metrics';

/** Seconds; from a cached read (~1 ms) to a large export or a request stuck behind a lock. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Anything else (a scanner's made-up verb) shares one label: label values must stay a short, fixed list. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route's pattern (`/api/v1/entries/:id`), never the URL: ids in labels would make a new time
 * series per entry. Requests no route matched (404s, probes of random paths) share one label.
 */
function routeLabel(request: FastifyRequest): string {
  return request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
}

function countRequests(app: FastifyInstance, registry: Registry): void {
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({ name: 'tolk_http_requests_total', help: 'HTTP requests answered, by route pattern', labelNames, registers: [registry] });
  const durations = new Histogram({
    name: 'tolk_http_request_duration_seconds',
    help: 'time from receiving a request to the end of its response (or the client going away)',
    labelNames,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  app.addHook('onRequest', (request, reply, done) => {
    // 'close', not onResponse: onResponse misses responses whose client went away mid-body.
    reply.raw.once('close', () => {
      const labels = { method: KNOWN_METHODS.has(request.method) ? request.method : 'OTHER', route: routeLabel(request), status_code: String(reply.statusCode) };
      requests.inc(labels);
      durations.observe(labels, reply.elapsedTime / 1000);
    });
    done();
  });
}

/** Gauges read from the pool at scrape time (PostgreSQL only: SQLite has no pool, see Store.poolStats). */
function gaugePool(store: Store, registry: Registry): void {
  if (!store.poolStats) return;
  const gauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = store.poolStats?.();
        if (stats) this.set(read(stats));
      },
    });
  gauge('tolk_db_pool_connections', 'open database connections in the pool, busy or idle', (stats) => stats.total);
  gauge('tolk_db_pool_idle_connections', 'open database connections in the pool waiting for work', (stats) => stats.idle);
  gauge('tolk_db_pool_waiting_queries', 'queries waiting for a free database connection', (stats) => stats.waiting);
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** A scrape must send `Authorization: Bearer <token>`; digests make the comparison constant-time whatever the length. */
function requireToken(token: string): (request: FastifyRequest) => Promise<void> {
  const expected = digest(`Bearer ${token}`);
  return async (request) => {
    const sent = request.headers.authorization;
    if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
      throw new AppError('ERR_UNAUTHORIZED', 'GET /metrics needs the metrics token: Authorization: Bearer <METRICS_TOKEN>', undefined, { 'www-authenticate': 'Bearer' });
    }
  };
}

const LOOPBACK = /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$|^::1$/;
const isLoopback = (address: string | undefined) => address !== undefined && LOOPBACK.test(address);

/** Headers a reverse proxy adds: the client it speaks for is somewhere else. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * A client on this machine: the socket's peer is a loopback address, and so is the client it speaks
 * for when a trusted proxy forwarded the request (request.ip, as the throttles see it). A request
 * forwarded by a proxy that is not trusted (X-Forwarded-For and the like left unread) is not local:
 * a reverse proxy on the same host, without TRUST_PROXY, would otherwise make every client loopback.
 */
function isLocalClient(request: FastifyRequest): boolean {
  if (!isLoopback(request.socket.remoteAddress) || !isLoopback(request.ip)) return false;
  const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
  // request.ips (trustProxy only) lists the socket's peer and every address the trusted proxies vouched for.
  return !forwarded || (request.ips?.length ?? 0) > 1;
}

/** Only clients on this machine: anyone else gets 403 (no credential would help: none is configured). */
async function requireLocalClient(request: FastifyRequest): Promise<void> {
  if (!isLocalClient(request)) {
    throw forbidden('GET /metrics answers only clients on this machine; set METRICS_TOKEN (then scrape with Authorization: Bearer <METRICS_TOKEN>) or METRICS_PUBLIC=true');
  }
}

export interface MetricsOptions {
  store: Store;
  /** when set, every scrape must present it; otherwise only loopback clients get /metrics */
  token?: string | undefined;
  /** /metrics answers anyone, like /healthz (METRICS_PUBLIC=true) */
  public?: boolean;
}

/**
 * Installs the metrics hooks on the root instance and adds GET /metrics. Install before any route is
 * registered: plugins registered earlier would not inherit the hooks. Each app has its own registry
 * (tests build many apps in one process); only the process metrics are shared.
 */
export function installMetrics(app: FastifyInstance, { store, token, public: isPublic = false }: MetricsOptions): void {
  const registry = new Registry();
  countRequests(app, registry);
  observeExports(app, registry);
  gaugePool(store, registry);
  const scraped = Registry.merge([processRegistry(), registry]);
  const access = isPublic ? {} : { onRequest: token ? requireToken(token) : requireLocalClient };
  app.get(METRICS_PATH, { schema: { tags: ['observability'] }, ...access }, async (_request, reply) => {
    reply.type(scraped.contentType);
    return scraped.metrics();
  });
}
