import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/access.js';
import { TOLK_BIN } from '../helpers/cli.js';
import { newId, nowIso } from '../../src/domain/shared/ids.js';
import { DIALECTS } from '../helpers/dialects.js';
import { parsePrometheusText, type Family, type Sample } from '../helpers/prometheus-text.js';
import { createEntry, createGroup, createProject } from '../helpers/seed.js';
import { openTestStore, startServer, type TestServer } from '../helpers/server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const originOf = (server: TestServer) => server.baseUrl.replace(/\/api\/v1$/, '');

function family(families: Map<string, Family>, name: string): Family {
  const found = families.get(name);
  if (!found) throw new Error(`no metric family ${name}`);
  return found;
}

/** The samples of a family's series that carry all these labels. */
function samples(found: Family, labels: Record<string, string>, name = found.name): Sample[] {
  return found.samples.filter((sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value));
}

const valueOf = (found: Family, labels: Record<string, string>, name?: string) => samples(found, labels, name)[0]?.value;

describe.each(DIALECTS)('GET /metrics and request ids on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let projectId: string;
  let entryId: string;
  let families: Map<string, Family>;
  let scrape: Response;
  let text: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    key = (await server.user()).apiKey;
    projectId = (await createProject(server, key)).id;
    const group = await createGroup(server, key, projectId, 'main');
    entryId = (await createEntry(server, key, group.id, 'greeting')).id;
    expect((await server.api('GET', `/entries/${entryId}`, { key })).status).toBe(200);
    expect((await server.api('GET', '/entries/zzzzzzzzzzzzzzzzzzzzzzzz', { key })).status).toBe(404);
    expect((await server.api('GET', `/projects/${projectId}/export/json`, { key })).status).toBe(200);
    expect((await fetch(`${originOf(server)}/no/such/${entryId}`)).status).toBe(404);
    scrape = await fetch(`${originOf(server)}/metrics`);
    text = await scrape.text();
    families = parsePrometheusText(text);
  });
  afterAll(() => server?.close());

  it('answers in the Prometheus text format, with the security headers and without being metered', () => {
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(scrape.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(scrape.headers.get('x-content-type-options')).toBe('nosniff');
    expect(scrape.headers.get('ratelimit-limit')).toBeNull();
    expect(families.size).toBeGreaterThan(10);
  });

  it('counts requests by route pattern, method and status; unmatched routes share one label', () => {
    const requests = family(families, 'tolk_http_requests_total');
    expect(requests.type).toBe('counter');
    expect(valueOf(requests, { method: 'GET', route: '/api/v1/entries/:id', status_code: '200' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(requests, { method: 'GET', route: '/api/v1/entries/:id', status_code: '404' })).toBe(1);
    expect(valueOf(requests, { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
  });

  it('puts no raw URL or id in any label value', () => {
    const values = [...families.values()].flatMap((found) => found.samples.flatMap((sample) => Object.values(sample.labels)));
    for (const id of [entryId, projectId, 'zzzzzzzzzzzzzzzzzzzzzzzz', '/no/such']) {
      expect(values.filter((value) => value.includes(id))).toEqual([]);
    }
  });

  it('keeps a request latency histogram with its buckets', () => {
    const durations = family(families, 'tolk_http_request_duration_seconds');
    expect(durations.type).toBe('histogram');
    const entryReads = { method: 'GET', route: '/api/v1/entries/:id', status_code: '200' };
    const buckets = samples(durations, entryReads, 'tolk_http_request_duration_seconds_bucket');
    expect(buckets.map((bucket) => bucket.labels.le)).toEqual(['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
    const count = valueOf(durations, entryReads, 'tolk_http_request_duration_seconds_count');
    expect(count).toBeGreaterThanOrEqual(1);
    expect(buckets.at(-1)?.value).toBe(count);
    expect(valueOf(durations, entryReads, 'tolk_http_request_duration_seconds_sum')).toBeGreaterThan(0);
  });

  it('measures the export by format and outcome', () => {
    const exports = family(families, 'tolk_export_duration_seconds');
    expect(exports.type).toBe('histogram');
    expect(valueOf(exports, { format: 'json', outcome: 'ok' }, 'tolk_export_duration_seconds_count')).toBe(1);
    expect(samples(exports, { format: 'json', outcome: 'ok' }, 'tolk_export_duration_seconds_bucket').length).toBeGreaterThan(5);
    expect(exports.samples.every((sample) => sample.labels.format === 'json')).toBe(true);
  });

  it('includes the default process metrics', () => {
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(families.has(name)).toBe(true);
    }
  });

  it(dialect === 'postgres' ? 'reports the connection pool' : 'reports no pool (SQLite has two fixed connections)', () => {
    const names = [...families.keys()];
    if (dialect === 'postgres') {
      expect(valueOf(family(families, 'tolk_db_pool_connections'), {})).toBeGreaterThanOrEqual(1);
      expect(names).toEqual(expect.arrayContaining(['tolk_db_pool_idle_connections', 'tolk_db_pool_waiting_queries']));
    } else {
      expect(names.filter((name) => name.startsWith('tolk_db_pool_'))).toEqual([]);
    }
  });

  it('is left out of the OpenAPI document', async () => {
    const document = await server.api('GET', '/openapi.json');
    expect(Object.keys(document.body.paths).filter((path) => path.includes('metrics'))).toEqual([]);
  });

  it('echoes a safe incoming X-Request-Id, on successes and errors alike', async () => {
    const ok = await server.api('GET', '/version', { headers: { 'x-request-id': 'edge-42.a_B' } });
    expect(ok.headers.get('x-request-id')).toBe('edge-42.a_B');
    const unauthorized = await server.api('GET', '/info', { key: 'tolk_wrong', headers: { 'x-request-id': 'trace-401' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('x-request-id')).toBe('trace-401');
    const notFound = await fetch(`${originOf(server)}/nowhere`, { headers: { 'x-request-id': 'trace-404' } });
    expect(notFound.headers.get('x-request-id')).toBe('trace-404');
    const badUrl = await fetch(`${server.baseUrl}/entries/%E0%A4%A`, { headers: { 'x-request-id': 'trace-bad-url' } });
    expect(badUrl.status).toBe(400);
    expect(badUrl.headers.get('x-request-id')).toBe('trace-bad-url');
  });

  it('replaces an unsafe X-Request-Id and generates one when there is none', async () => {
    for (const unsafe of ['has space', 'quote"d', 'x'.repeat(101), '{"level":60}']) {
      const response = await server.api('GET', '/version', { headers: { 'x-request-id': unsafe } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
    const first = await server.api('GET', '/version');
    const second = await server.api('GET', '/version');
    expect(first.headers.get('x-request-id')).toMatch(UUID);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });
});

/** Enough content (megabytes of JSON) that an export is still being written when its client gives up. */
const LARGE_PROJECT_ENTRIES = 20_000;

describe.each(DIALECTS)('export outcomes on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server?.close());

  it('measures an export whose client leaves mid-body as aborted, and a whole one as ok', async () => {
    const key = (await server.user()).apiKey;
    const project = await createProject(server, key, { translationLanguages: ['de', 'fr', 'pt-BR'] });
    const group = await createGroup(server, key, project.id, 'bulk');
    // Written straight to the store: thousands of API calls would only slow the test down.
    const now = nowIso();
    const rows = Array.from({ length: LARGE_PROJECT_ENTRIES }, (_, i) => ({
      id: newId(), project_id: project.id, group_id: group.id, technical_name: `entry${i}`, base_term: `Text number ${i} `.repeat(8),
      base_term_key: `text number ${i} `.repeat(8), context_info: null, created_at: now, updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) await server.store.db.insertInto('entries').values(rows.slice(i, i + 500)).execute();
    const controller = new AbortController();
    const headers = { authorization: `Bearer ${key}` };
    const cut = await fetch(`${server.baseUrl}/projects/${project.id}/export/json`, { headers, signal: controller.signal });
    await cut.body!.getReader().read();
    controller.abort();
    await (await fetch(`${server.baseUrl}/projects/${project.id}/export/vue-i18n`, { headers })).arrayBuffer();
    await sleep(200);
    const exports = family(parsePrometheusText(await (await fetch(`${originOf(server)}/metrics`)).text()), 'tolk_export_duration_seconds');
    const countOf = (labels: Record<string, string>) => valueOf(exports, labels, 'tolk_export_duration_seconds_count');
    expect(countOf({ format: 'json', outcome: 'aborted' })).toBe(1);
    expect(countOf({ format: 'vue-i18n', outcome: 'ok' })).toBe(1);
    expect(samples(exports, { outcome: 'failed' }, 'tolk_export_duration_seconds_count')).toEqual([]);
  }, 60_000);
});

describe('tolk serve with METRICS_TOKEN, as a process', () => {
  const token = 'scrape-secret-1';
  let origin: string;
  let output = '';
  let stopServer: () => Promise<void>;

  beforeAll(async () => {
    const { store, url, dispose } = await openTestStore('sqlite');
    await store.close();
    const port = await freePort();
    const child = spawn(process.execPath, [TOLK_BIN, 'serve'], {
      env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', METRICS_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit');
    stopServer = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await dispose();
    };
    origin = `http://127.0.0.1:${port}`;
    for (let attempt = 0; attempt < 400; attempt++) {
      if (await fetch(`${origin}/healthz`).then((r) => r.ok, () => false)) return;
      if (child.exitCode !== null) break;
      await sleep(50);
    }
    throw new Error(`tolk serve did not start: ${output}`);
  });
  afterAll(() => stopServer?.());

  it('logs the request id it echoes, in the request\'s JSON log lines', async () => {
    const response = await fetch(`${origin}/healthz`, { headers: { 'x-request-id': 'log-trace-7' } });
    expect(response.headers.get('x-request-id')).toBe('log-trace-7');
    await sleep(200);
    const lines = output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    const ofRequest = lines.filter((line) => line.reqId === 'log-trace-7');
    expect(ofRequest.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('refuses a scrape without the token, with the contract error body', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`]) {
      const response = await fetch(`${origin}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ statusCode: 401, code: 'ERR_UNAUTHORIZED', message: expect.any(String) });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
  });

  it('serves the metrics to a scrape with the token', async () => {
    const response = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const names = [...parsePrometheusText(await response.text()).keys()];
    expect(names).toEqual(expect.arrayContaining(['tolk_http_requests_total', 'process_cpu_user_seconds_total']));
  });
});
