/** The targets of issue 5, each with the check that says whether a measured figure meets it. */
const SCENARIO_TARGETS = {
  'point-read': { text: 'ratio ≥ 0.50', met: (s) => s.ratio >= 0.5 },
  'list-page': { text: 'ratio ≥ 0.15', met: (s) => s.ratio >= 0.15 },
  search: { text: 'p99 ≤ 50 ms', met: (s) => s.p99_ms <= 50 },
  untranslated: { text: 'p99 ≤ 50 ms', met: (s) => s.p99_ms <= 50 },
  // "Deep offsets sub-linear": the deep page may cost at most twice the first (1 ms floor: latencies are whole ms).
  'untranslated-deep': { text: 'p50 ≤ 2 × offset-0 p50', met: (s, byName) => s.p50_ms <= 2 * Math.max(byName.untranslated?.p50_ms ?? 0, 1) },
  'write-upsert': { text: 'ratio ≥ 0.15, 0 errors', met: (s) => s.ratio >= 0.15 && s.errors === 0 },
  'concurrent-create': { text: 'ratio ≥ 0.10, 0 errors', met: (s) => s.ratio >= 0.1 && s.errors === 0 },
  'export-json': { text: 'ratio ≥ 0.05', met: (s) => s.ratio >= 0.05 },
};

const LARGE_EXPORT_TARGET = {
  text: 'wall ≤ 3 s, RSS ≤ 300 MB',
  met: (e) => e.problem === null && e.wall_s !== null && e.wall_s <= 3 && e.peak_rss_mb !== null && e.peak_rss_mb <= 300,
};

/** `{ text, verdict }` for a scenario: verdict 'met', 'not met', or '—' where the issue sets no target. */
export function judgeScenario(scenario, byName) {
  const target = SCENARIO_TARGETS[scenario.name];
  if (!target) return { text: '—', verdict: '—' };
  return { text: target.text, verdict: target.met(scenario, byName) ? 'met' : 'not met' };
}

/** `{ text, verdict }` for one large export. */
export function judgeLargeExport(result) {
  return { text: LARGE_EXPORT_TARGET.text, verdict: LARGE_EXPORT_TARGET.met(result) ? 'met' : 'not met' };
}
