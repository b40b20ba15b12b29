/**
 * Once each, single-shot: every export of the large project, its wall time (request sent → last byte
 * read) and the server's peak RSS meanwhile; the json export also as `release=reviewed`, right after
 * the latest one, so that the two compare in the same run (issue 33). The peak is the larger of VmRSS sampled every 20 ms and
 * VmHWM, whose high-water mark is reset first through /proc/<pid>/clear_refs (Linux).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';

export const LARGE_EXPORTS = [
  { format: 'json', release: 'latest' },
  { format: 'json', release: 'reviewed' },
  { format: 'vue-i18n', release: 'latest' },
  { format: 'i18next', release: 'latest' },
  { format: 'flutter', release: 'latest' },
];
const SAMPLE_EVERY_MS = 20;
const EXPORT_TIMEOUT_MS = 180_000;

/** VmRSS and VmHWM of the process in kB, or null where /proc is not there. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Sets VmHWM back to the current RSS; false when the kernel does not allow it. */
export function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** GETs `url` to the end; resolves status, byte count and (for JSON or errors) the body text. */
export function download(url, apiKey, keepBody) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { authorization: `Bearer ${apiKey}` }, agent: false, timeout: EXPORT_TIMEOUT_MS }, (response) => {
      const chunks = [];
      let bytes = 0;
      const keep = keepBody || response.statusCode < 200 || response.statusCode > 299;
      response.on('data', (chunk) => {
        bytes += chunk.length;
        if (keep) chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode, bytes, body: keep ? Buffer.concat(chunks).toString('utf8') : '' }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no complete answer within ${EXPORT_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end();
  });
}

/** A sanity check of JSON exports (complete, every language present); null when fine, else the problem. */
function checkJson(body, languageCount) {
  try {
    const languages = Object.keys(JSON.parse(body)).length;
    return languages === languageCount ? null : `${languages} languages in the export, expected ${languageCount}`;
  } catch (error) {
    return `not JSON: ${error.message}`;
  }
}

async function exportOnce({ server, apiKey, projectId, languageCount }, { format, release }) {
  const { url: baseUrl, pid } = await server(release === 'latest' ? format : `${format} release=${release}`);
  const url = `${baseUrl}/api/v1/projects/${projectId}/export/${format}${release === 'latest' ? '' : `?release=${release}`}`;
  const isJson = format === 'json' || format === 'vue-i18n';
  const peakReset = resetPeak(pid);
  let peakKb = memoryOf(pid)?.rss ?? NaN;
  const sampler = setInterval(() => {
    peakKb = Math.max(peakKb, memoryOf(pid)?.rss ?? NaN);
  }, SAMPLE_EVERY_MS);
  const started = performance.now();
  let answer;
  try {
    answer = await download(url, apiKey, isJson);
  } catch (error) {
    answer = { status: 0, bytes: 0, body: error.message };
  } finally {
    clearInterval(sampler);
  }
  const wall = (performance.now() - started) / 1000;
  if (peakReset) peakKb = Math.max(peakKb, memoryOf(pid)?.hwm ?? NaN);
  const ok = answer.status >= 200 && answer.status <= 299;
  const problem = !ok ? `HTTP ${answer.status}: ${answer.body.slice(0, 400)}` : isJson ? checkJson(answer.body, languageCount) : null;
  return {
    format,
    release,
    wall_s: ok ? Number(wall.toFixed(3)) : null,
    peak_rss_mb: Number.isFinite(peakKb) ? Number((peakKb / 1024).toFixed(1)) : null,
    bytes: answer.bytes,
    problem,
  };
}

/** Runs every large export in turn; `server(format)` gives the live server's `{ url, pid }`. */
export async function measureLargeExports(target) {
  const results = [];
  for (const large of LARGE_EXPORTS) results.push(await exportOnce(target, large));
  return results;
}
