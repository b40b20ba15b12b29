/** The printed table and the JSON files of bench/results/. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { floorFor, judgeLargeExport, judgeScenario, ratioTargetOf } from './targets.mjs';
import { describeHistoryStorage } from './history-storage.mjs';

const number = (value, digits = 0) => (value === null || value === undefined ? '—' : value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }));

function table(header, rows) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => cells.map((cell, i) => (i === 0 || i === cells.length - 1 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** The table of one store's run, with the targets of the issue and whether each is met. */
export function formatStoreReport(run) {
  const { result, context } = run;
  const byName = Object.fromEntries(result.scenarios.map((s) => [s.name, s]));
  // The floor's rows first: they are measured first, and they bound every row below them.
  const measuredRows = [...(result.floor ?? []), ...result.scenarios];
  const scenarioRows = measuredRows.map((s) => {
    const { text, verdict } = judgeScenario(s, byName, result.store);
    const errors = s.crashes ? `${number(s.errors)} (crash)` : number(s.errors);
    return [s.name, s.connections, number(s.rps, s.rps < 100 ? 1 : 0), number(s.p50_ms, 1), number(s.p99_ms, 1), number(s.ratio, 4), errors, text, verdict];
  });
  const exportRows = result.large_exports.map((e) => {
    const { text, verdict } = judgeLargeExport(e, result.store, result.large_exports);
    return [largeExportName(e), number(e.wall_s, 2), number(e.peak_rss_mb, 1), number(e.bytes / 1048576, 1), text, e.problem ? `not met (${e.problem.slice(0, 120)})` : verdict];
  });
  const large = context.large;
  return [
    `== tolk on ${result.store}: ${context.storeLabel}`,
    `bare node:http: ${number(result.bare_rps)} req/s at 10 connections (p50 ${number(context.bare.p50_ms, 1)} ms); ratio = req/s ÷ that`,
    `${context.seconds} s per scenario after ${context.warmupSeconds} s warm-up${floorWarmup(result, context)}; latencies in ms`,
    '',
    table(['scenario', 'conns', 'req/s', 'p50', 'p99', 'ratio', 'errors', 'target', 'verdict'], scenarioRows),
    '',
    ...measuredRows.map((s) => `  ${s.name.padEnd(19)} ${s.note}`),
    '',
    ...(result.history_after_scenarios ? [`the change log after the scenarios: ${describeHistoryStorage(result.history_after_scenarios)}`, ''] : []),
    ...floorLines(result),
    ...(exportRows.length === 0
      ? []
      : [
          `large project exports, single-shot: ${number(large.entries)} entries × ${large.languages.length + 1} languages, ` +
            `${number(large.translations)} translations (${number(large.reviewed)} reviewed), ${large.groups} groups${context.quick ? ' (--quick: not the 100,000 of the issue; verdicts indicative only)' : ''}`,
          '',
          table(['format', 'wall s', 'peak RSS MB', 'size MB', 'target', 'verdict'], exportRows),
          '',
        ]),
    ...importLines(result),
  ].join('\n');
}

/** A large export's row name: its format, and its release unless it is the default `latest`. */
const largeExportName = (e) => (e.release === 'latest' ? e.format : `${e.format} release=${e.release}`);

/** The floor's own warm-up, when it is longer than the scenarios' (its server starts cold: floor.mjs). */
function floorWarmup(result, context) {
  const warmup = result.floor?.[0]?.warmupSeconds;
  return warmup && warmup !== context.warmupSeconds ? ` (the floor's fresh server: ${warmup} s)` : '';
}

/**
 * Each scenario with a ratio target against the floor row that bounds it (floor-write for saves,
 * floor-read otherwise), in this run: a target above its floor's ratio is out of reach on this stack,
 * whatever tolk does (within the noise of one run).
 */
function floorLines(result) {
  const floorByName = Object.fromEntries((result.floor ?? []).map((row) => [row.name, row]));
  const lines = [];
  for (const s of result.scenarios) {
    const floor = floorByName[floorFor(s.name)];
    const target = ratioTargetOf(s.name, result.store);
    if (!floor || target === null || !(floor.ratio > 0)) continue;
    const reach = target > floor.ratio ? "ABOVE the floor's ratio: out of reach on this stack" : "not above the floor's ratio";
    lines.push(`  ${s.name.padEnd(19)} ratio ${number(s.ratio, 4)} = ${number((100 * s.ratio) / floor.ratio)} % of ${floor.name} (${number(floor.ratio, 4)}); target ≥ ${target.toFixed(2)}: ${reach}`);
  }
  if (lines.length === 0) return [];
  return ['against the floor (same run; no scenario can pass the ratio of its floor, see bench/README.md "The floor"):', ...lines, ''];
}

/** Targets of the import issue: ≤ 20 s on SQLite, ≤ 40 s on PostgreSQL, peak RSS ≤ 500 MB, point reads p99 ≤ 200 ms. */
function importLines(result) {
  const i = result.large_import;
  if (!i) return [];
  const limit = result.store === 'sqlite' ? 20 : 40;
  const met = i.problem === null && i.wall_s <= limit && i.peak_rss_mb <= 500 && i.read_p99_ms <= 200 && i.read_failures === 0;
  return [
    'import-large (the large json export into an empty project, one request; point reads by 4 clients meanwhile):',
    table(
      ['wall s', 'peak RSS MB', 'body MB', 'reads', 'read p50', 'read p99', 'read max', 'read failures', 'target', 'verdict'],
      [[number(i.wall_s, 2), number(i.peak_rss_mb, 1), number(i.body_mb, 1), number(i.reads), number(i.read_p50_ms, 1), number(i.read_p99_ms, 1), number(i.read_max_ms, 1), number(i.read_failures),
        `≤ ${limit} s, ≤ 500 MB, p99 ≤ 200 ms`, i.problem ? `not met (${i.problem.slice(0, 120)})` : met ? 'met' : 'not met']],
    ),
    ...(i.history ? [`the change log after it: ${describeHistoryStorage(i.history)}`] : []),
  ];
}

/** Everything a developer should look at: non-2xx answers with their bodies, and the server's warn/error lines. */
export function formatProblems(run) {
  const lines = [];
  for (const s of [...(run.result.floor ?? []), ...run.result.scenarios]) {
    for (const [status, { count, bodies }] of Object.entries(s.failures)) {
      lines.push(`  ${s.name}: ${count} × HTTP ${status}`);
      for (const body of bodies) lines.push(`      ${body}`);
    }
    if (s.socketErrors > 0) lines.push(`  ${s.name}: ${s.socketErrors} socket errors (${s.timeouts} timeouts)`);
    if (s.output) lines.push(`  ${s.name}: the floor server's last output:`, ...s.output.split('\n').slice(-15).map((line) => `      ${line}`));
  }
  const { log, crashes, floorProblem } = run.context;
  if (floorProblem) lines.push(`  the floor FAILED (no floor rows): ${floorProblem.split('\n').slice(0, 20).join('\n      ')}`);
  const shown = new Set();
  for (const crash of crashes) {
    lines.push(`  tolk serve EXITED (code ${crash.code}, signal ${crash.signal}), noticed ${crash.when}; restarted.`);
    const output = crash.output.split('\n').slice(-25).join('\n');
    if (shown.has(output)) lines.push('      (its last output: the same as above)');
    else lines.push('      its last output:', ...output.split('\n').map((line) => `      ${line}`));
    shown.add(output);
  }
  for (const [text, count] of log.records) lines.push(`  server log, ${count} ×: ${text}`);
  if (log.rawLines > 0 && crashes.length === 0) {
    lines.push(`  server printed ${log.rawLines} lines that are not log records; distinct ones:`, ...[...log.raw].map((line) => `      ${line}`));
  }
  return lines.length === 0 ? `problems on ${run.result.store}: none (no non-2xx, no socket errors, no server warnings)` : [`problems on ${run.result.store}:`, ...lines].join('\n');
}

/** Only the fields of the JSON shape. */
function publicShape(result) {
  return {
    store: result.store,
    bare_rps: result.bare_rps,
    scenarios: result.scenarios.map(({ name, rps, p50_ms, p99_ms, ratio, errors }) => ({ name, rps, p50_ms, p99_ms, ratio, errors })),
    large_exports: result.large_exports.map(({ format, release, wall_s, peak_rss_mb }) => ({ format, release, wall_s, peak_rss_mb })),
    large_import: result.large_import ?? null,
    // not tolk: the least the quota count (floor-read) and a durable save (floor-write) cost here, same ratio to bare
    floor: (result.floor ?? []).map(({ name, rps, p50_ms, p99_ms, ratio, errors }) => ({ name, rps, p50_ms, p99_ms, ratio, errors })),
  };
}

/** Writes latest-<store>.json per store and latest.json (the last store run); returns the paths. */
export function writeResults(directory, results) {
  mkdirSync(directory, { recursive: true });
  const written = [];
  for (const result of results) {
    const path = `${directory}/latest-${result.store}.json`;
    writeFileSync(path, `${JSON.stringify(publicShape(result), null, 2)}\n`);
    written.push(path);
  }
  if (results.length > 0) {
    writeFileSync(`${directory}/latest.json`, `${JSON.stringify(publicShape(results.at(-1)), null, 2)}\n`);
    written.push(`${directory}/latest.json`);
  }
  return written;
}
