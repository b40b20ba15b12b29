/**
 * GET /metrics in the Prometheus text format: requests per route pattern, export durations, the
 * database pool and the process. Public like /healthz (outside /api/v1, no API key, never counted
 * against a quota) unless a metrics token is configured.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError } from '../../errors.js';
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

export interface MetricsOptions {
  store: Store;
  /** when set, scrapes must present it; otherwise /metrics is public like /healthz */
  token?: string | undefined;
}

/**
 * Installs the metrics hooks on the root instance and adds GET /metrics. Install before any route is
 * registered: plugins registered earlier would not inherit the hooks. Each app has its own registry
 * (tests build many apps in one process); only the process metrics are shared.
 */
export function installMetrics(app: FastifyInstance, { store, token }: MetricsOptions): void {
  const registry = new Registry();
  countRequests(app, registry);
  observeExports(app, registry);
  gaugePool(store, registry);
  const scraped = Registry.merge([processRegistry(), registry]);
  app.get(METRICS_PATH, { schema: { tags: ['observability'] }, ...(token ? { onRequest: requireToken(token) } : {}) }, async (_request, reply) => {
    reply.type(scraped.contentType);
    return scraped.metrics();
  });
}
