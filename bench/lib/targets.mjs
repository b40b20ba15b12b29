/**
 * The targets, each with the check that says whether a measured figure meets it: issue 5's, raised
 * by issue 17 where it sets one per store (SQLite / PostgreSQL).
 */
const perStore = (sqlite, postgres) => ({ sqlite, postgres });
const ratioTarget = (min, withErrors = false) => ({
  text: `ratio ≥ ${min.toFixed(2)}${withErrors ? ', 0 errors' : ''}`,
  minRatio: min,
  met: (s) => s.ratio >= min && (!withErrors || s.errors === 0),
});

// floor-read and floor-write have none: they are not tolk but what any implementation pays here (floor.mjs).
const SCENARIO_TARGETS = {
  'point-read': perStore(ratioTarget(0.5), ratioTarget(0.25)),
  'list-page': perStore(ratioTarget(0.15), ratioTarget(0.1)),
  search: { text: 'p99 ≤ 50 ms', met: (s) => s.p99_ms <= 50 },
  untranslated: { text: 'p99 ≤ 50 ms', met: (s) => s.p99_ms <= 50 },
  // "Deep offsets sub-linear": the deep page may cost at most twice the first (1 ms floor: latencies are whole ms).
  'untranslated-deep': { text: 'p50 ≤ 2 × offset-0 p50', met: (s, byName) => s.p50_ms <= 2 * Math.max(byName.untranslated?.p50_ms ?? 0, 1) },
  'write-upsert': perStore(ratioTarget(0.15, true), ratioTarget(0.06, true)),
  'concurrent-create': perStore(ratioTarget(0.1, true), ratioTarget(0.04, true)),
  'export-json': ratioTarget(0.05),
  mixed: { text: 'p99 ≤ 100 ms, 0 errors', met: (s) => s.p99_ms <= 100 && s.errors === 0 },
  // issue 32
  'history-entry-page': { text: 'p99 ≤ 20 ms', met: (s) => s.p99_ms <= 20 },
};

/** Issue 17: each format of the large project within 2 s (SQLite) or 3 s (PostgreSQL), the server's peak RSS ≤ 200 MB. */
const largeExportTarget = (seconds) => ({
  text: `wall ≤ ${seconds} s, RSS ≤ 200 MB`,
  met: (e) => e.problem === null && e.wall_s !== null && e.wall_s <= seconds && e.peak_rss_mb !== null && e.peak_rss_mb <= 200,
});
const LARGE_EXPORT_TARGETS = perStore(largeExportTarget(2), largeExportTarget(3));

const forStore = (target, store) => (target && 'sqlite' in target ? target[store] : target);

/** `{ text, verdict }` for a scenario on `store`: verdict 'met', 'not met', or '—' where no issue sets a target. */
export function judgeScenario(scenario, byName, store) {
  const target = forStore(SCENARIO_TARGETS[scenario.name], store);
  if (!target) return { text: '—', verdict: '—' };
  return { text: target.text, verdict: target.met(scenario, byName) ? 'met' : 'not met' };
}

/** The least ratio to bare that the scenario's target asks on `store`, or null when its target is not a ratio. */
export function ratioTargetOf(name, store) {
  return forStore(SCENARIO_TARGETS[name], store)?.minRatio ?? null;
}

/** Scenarios whose every request is a durable save; each other scenario's requests are bounded by floor-read. */
const SAVES = new Set(['write-upsert', 'concurrent-create']);

/** The floor row that bounds a scenario: floor-write for saves, floor-read for the rest. */
export const floorFor = (name) => (SAVES.has(name) ? 'floor-write' : 'floor-read');

/** Issue 33: an export of what was reviewed costs at most 10 % more than the same format's latest one, in the same run. */
const REVIEWED_WITHIN = 1.1;

/** `{ text, verdict }` for one large export on `store`; `all` (the run's large exports) holds the latest one a reviewed one is held to. */
export function judgeLargeExport(result, store, all = []) {
  const target = forStore(LARGE_EXPORT_TARGETS, store);
  const latest = result.release === 'reviewed' ? all.find((e) => e.format === result.format && e.release === 'latest') : undefined;
  if (!latest) return { text: target.text, verdict: target.met(result) ? 'met' : 'not met' };
  const withinLatest = result.wall_s !== null && latest.wall_s !== null && result.wall_s <= REVIEWED_WITHIN * latest.wall_s;
  return { text: `${target.text}, wall ≤ ${REVIEWED_WITHIN} × latest`, verdict: target.met(result) && withinLatest ? 'met' : 'not met' };
}
