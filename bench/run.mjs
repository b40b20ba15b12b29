/**
 * `npm run bench [-- --quick]`: tolk against the bare node:http ceiling, on SQLite and (with
 * BENCH_DATABASE_URL) PostgreSQL. See bench/README.md. Every server is a child process on 127.0.0.1,
 * stopped at the end, on failure and on SIGINT/SIGTERM; the load generator runs here.
 */
import { fileURLToPath } from 'node:url';
import { benchStore, say } from './lib/bench-store.mjs';
import { Cleanup } from './lib/cleanup.mjs';
import { stopLoad } from './lib/load.mjs';
import { parseOptions } from './lib/options.mjs';
import { startBareServer } from './lib/processes.mjs';
import { formatProblems, formatStoreReport, writeResults } from './lib/report.mjs';

const RESULTS_DIR = fileURLToPath(new URL('./results', import.meta.url));

const options = parseOptions(process.argv.slice(2));
const cleanup = new Cleanup();

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    say(`${signal}: stopping the load and every server`);
    stopLoad();
    void cleanup.runAll().finally(() => process.exit(130));
  });
}

async function main() {
  say(`stores: ${options.stores.join(', ')}${options.quick ? ' (--quick)' : ''}`);
  const bare = await startBareServer(cleanup);
  const runs = [];
  let failed = false;
  for (const kind of options.stores) {
    try {
      runs.push(await benchStore({ kind, options, bare, cleanup, resultsDir: RESULTS_DIR }));
    } catch (error) {
      failed = true;
      if (cleanup.closing) return 130;
      say(`${kind} failed: ${error instanceof Error ? error.stack : error}`);
    }
  }
  for (const run of runs) process.stdout.write(`\n${formatStoreReport(run)}\n\n${formatProblems(run)}\n`);
  const written = writeResults(RESULTS_DIR, runs.map((run) => run.result));
  if (written.length > 0) process.stdout.write(`\nwritten: ${written.join(', ')}\n`);
  if (failed) return 1;
  return runs.some(isUnhealthy) ? 3 : 0;
}

/** A run in which tolk crashed, answered 5xx, lost connections or failed a large export (exit code 3). */
function isUnhealthy(run) {
  const { result, context } = run;
  const serverErrors = result.scenarios.some((s) => s.socketErrors > 0 || Object.keys(s.failures).some((status) => Number(status) >= 500));
  return context.crashes.length > 0 || serverErrors || result.large_exports.some((e) => e.problem !== null) || (result.large_import?.problem ?? null) !== null;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  if (!cleanup.closing) say(`failed: ${error instanceof Error ? error.stack : error}`);
} finally {
  await cleanup.runAll();
}
process.exit(exitCode);
