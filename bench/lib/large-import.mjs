/**
 * import-large: the large project's json export imported into an empty project with the same
 * languages, in one request, single-shot. Measured: the wall time (request sent → report read), the
 * server's peak RSS meanwhile (as for the large exports), and the latency of point reads other clients
 * make during the import (they must keep being answered). The report must say every entry was created.
 */
import { request as httpRequest } from 'node:http';
import { download, memoryOf, resetPeak } from './large-exports.mjs';

const SAMPLE_EVERY_MS = 20;
const IMPORT_TIMEOUT_MS = 600_000;
/** Clients reading single entries meanwhile, one request at a time each. */
const READERS = 4;

function post(url, apiKey, body) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': body.length }, agent: false, timeout: IMPORT_TIMEOUT_MS },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${IMPORT_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** Point reads by READERS clients until `stop()`; resolves their latencies in ms and the failures. */
function readWhile(baseUrl, apiKey, entryIds) {
  let running = true;
  const latencies = [];
  let failures = 0;
  const reader = async (offset) => {
    for (let i = offset; running; i += READERS) {
      const started = performance.now();
      try {
        const answer = await download(`${baseUrl}/api/v1/entries/${entryIds[i % entryIds.length]}`, apiKey, false);
        if (answer.status !== 200) failures += 1;
      } catch {
        failures += 1;
      }
      latencies.push(performance.now() - started);
    }
  };
  const done = Promise.all(Array.from({ length: READERS }, (_, offset) => reader(offset)));
  return {
    async stop() {
      running = false;
      await done;
      return { latencies, failures };
    },
  };
}

const percentile = (values, share) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};

/**
 * Runs import-large once; `server()` gives the live server's `{ url, pid }`, `fresh()` restarts it first
 * (after the export is downloaded, so that the export's heap is not the import's peak).
 */
export async function measureLargeImport({ server, fresh, apiKey, large, readEntryIds }) {
  const exporter = await server();
  const exported = await download(`${exporter.url}/api/v1/projects/${large.projectId}/export/json`, apiKey, true);
  if (exported.status !== 200) return { wall_s: null, problem: `export HTTP ${exported.status}` };
  const body = Buffer.from(exported.body, 'utf8');
  const { url: baseUrl, pid } = await fresh();
  const created = await post(`${baseUrl}/api/v1/projects`, apiKey, Buffer.from(JSON.stringify({ name: 'Import target', baseLanguage: large.baseLanguage, translationLanguages: large.languages })));
  if (created.status !== 200) return { wall_s: null, problem: `create project HTTP ${created.status}: ${created.body.slice(0, 200)}` };
  const projectId = JSON.parse(created.body).id;

  const peakReset = resetPeak(pid);
  let peakKb = memoryOf(pid)?.rss ?? NaN;
  const sampler = setInterval(() => {
    peakKb = Math.max(peakKb, memoryOf(pid)?.rss ?? NaN);
  }, SAMPLE_EVERY_MS);
  const readers = readWhile(baseUrl, apiKey, readEntryIds);
  const started = performance.now();
  let answer;
  try {
    answer = await post(`${baseUrl}/api/v1/projects/${projectId}/import?format=json`, apiKey, body);
  } catch (error) {
    answer = { status: 0, body: error.message };
  } finally {
    clearInterval(sampler);
  }
  const wall = (performance.now() - started) / 1000;
  const reads = await readers.stop();
  if (peakReset) peakKb = Math.max(peakKb, memoryOf(pid)?.hwm ?? NaN);
  let problem = null;
  if (answer.status !== 200) problem = `HTTP ${answer.status}: ${answer.body.slice(0, 400)}`;
  else {
    const report = JSON.parse(answer.body);
    if (report.entries.created !== large.entries) problem = `${report.entries.created} entries created, expected ${large.entries}`;
  }
  return {
    wall_s: problem ? null : Number(wall.toFixed(2)),
    peak_rss_mb: Number.isFinite(peakKb) ? Number((peakKb / 1024).toFixed(1)) : null,
    body_mb: Number((body.length / 1048576).toFixed(1)),
    reads: reads.latencies.length,
    read_failures: reads.failures,
    read_p50_ms: Number((percentile(reads.latencies, 0.5) ?? NaN).toFixed(1)),
    read_p99_ms: Number((percentile(reads.latencies, 0.99) ?? NaN).toFixed(1)),
    read_max_ms: Number(Math.max(...reads.latencies).toFixed(1)),
    problem,
  };
}
