/** Runs one scenario with autocannon in this process and reduces its result to the figures. */
import autocannon from 'autocannon';

/** Distinct non-2xx bodies kept per status code and scenario. */
const BODIES_PER_STATUS = 3;
const REQUEST_TIMEOUT_S = 30;

let running = null;

/** Stops the load that is running, if any (SIGINT). */
export function stopLoad() {
  running?.stop();
}

function runAutocannon(options) {
  return new Promise((resolve, reject) => {
    running = autocannon(options, (error, result) => {
      running = null;
      if (error) reject(error);
      else resolve(result);
    });
  });
}

/** Non-2xx answers by status: count and the first few distinct bodies (these are bugs to look at). */
class Failures {
  byStatus = new Map();

  note(status, body) {
    const entry = this.byStatus.get(status) ?? { count: 0, bodies: [] };
    entry.count += 1;
    const text = String(body).slice(0, 400);
    if (entry.bodies.length < BODIES_PER_STATUS && !entry.bodies.includes(text)) entry.bodies.push(text);
    this.byStatus.set(status, entry);
  }

  toJSON() {
    return Object.fromEntries(this.byStatus);
  }
}

const round = (value, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

/** Below these, per-second samples are too few or too coarse for their median to mean anything. */
const MIN_SAMPLES_FOR_MEDIAN = 5;
const MIN_REQUESTS_PER_SAMPLE = 20;

/**
 * The median of the per-second samples; with fewer than 5 samples (--quick) or under 20 requests a
 * second (requests slower than ~0.5 s at 10 connections), completed requests ÷ seconds instead: 8 s
 * requests give samples like [0, 0, 10, 0, …] whose median says 0.
 */
function requestsPerSecond(result) {
  const mean = result.requests.total / Math.max(result.duration, 1e-3);
  if (result.samples < MIN_SAMPLES_FOR_MEDIAN || mean < MIN_REQUESTS_PER_SAMPLE) return mean;
  return result.requests.p50;
}

/**
 * Warms up for `warmupSeconds`, then measures for `seconds` against `await target.url(phase)` (a server
 * that died in the warm-up is restarted there): req/s is the median of the per-second
 * samples; errors are non-2xx answers plus socket errors and timeouts (warm-up ones included).
 */
export async function measure(target, scenario, { seconds, warmupSeconds, headers }) {
  const failures = new Failures();
  const onResponse = (status, body) => {
    if (status < 200 || status > 299) failures.note(status, body);
  };
  const requests = scenario.requests.map((request) => ({ ...request, onResponse }));
  const options = { connections: scenario.connections, headers, requests, timeout: REQUEST_TIMEOUT_S };
  let warmupErrors = 0;
  if (warmupSeconds > 0) {
    const warmup = await runAutocannon({ ...options, url: await target.url('warm-up'), duration: warmupSeconds });
    warmupErrors = warmup.non2xx + warmup.errors;
  }
  const result = await runAutocannon({ ...options, url: await target.url('measurement'), duration: seconds });
  return {
    name: scenario.id,
    connections: scenario.connections,
    rps: Number(requestsPerSecond(result).toFixed(1)),
    p50_ms: round(result.latency.p50),
    p99_ms: round(result.latency.p99),
    errors: result.non2xx + result.errors + warmupErrors,
    total: result.requests.total,
    failures: failures.toJSON(),
    socketErrors: result.errors,
    timeouts: result.timeouts,
  };
}
