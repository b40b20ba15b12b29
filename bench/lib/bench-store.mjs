/**
 * One store's run: seed, start tolk, measure the bare ceiling, the floor (bench/lib/floor.mjs) and every
 * scenario, then the large exports. `--only floor` seeds nothing and starts no tolk server: the floor needs
 * only the store and its user.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { apiClient } from './api-client.mjs';
import { measureLargeExports } from './large-exports.mjs';
import { measureFleet } from './fleet.mjs';
import { measureFloor } from './floor.mjs';
import { measureLargeImport } from './large-import.mjs';
import { LARGE_BASE_LANGUAGE, largeLayout, seedLargeProject } from './large-project.mjs';
import { measure } from './load.mjs';
import { BARE_SCENARIO, buildScenarios } from './scenarios.mjs';
import { seedCreateTarget, seedHistoryEntry, seedSmallProject } from './small-project.mjs';
import { describeHistoryStorage, historyStorage } from './history-storage.mjs';
import { createBenchStore } from './stores.mjs';
import { createBenchUser, ServerLog, TolkKeeper } from './tolk-server.mjs';

/** Progress goes to stderr; the tables go to stdout. */
export const say = (message) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

const ratioOf = (rps, bare) => Number((rps / bare).toFixed(4));

/** Runs every measurement on one store; returns `{ result, context }` (result in the issue's shape plus details). */
export async function benchStore({ kind, options, bare, cleanup, resultsDir }) {
  const store = await createBenchStore(kind, options.postgresUrl, cleanup);
  const log = new ServerLog();
  const cpuProfDir = options.cpuProf ? join(resultsDir, 'profiles', kind) : undefined;
  const tolk = new TolkKeeper({ databaseUrl: store.url, cleanup, log, cpuProfDir });
  try {
    say(`${kind}: ${store.label}`);
    const tag = randomBytes(3).toString('hex');
    const user = await createBenchUser(store.url, `bench-${tag}@example.com`);
    // Every part but the floor needs the seeded projects and a tolk server (fleet-mixed gets them too, as it always did).
    const seeded = [...options.parts].some((part) => part !== 'floor');
    let large = null;
    let small = null;
    let creates = null;
    if (seeded) {
      const layout = largeLayout(options.quick);
      say(`${kind}: bulk-seeding the large project (${layout.fanout.join(' × ')} groups × ${layout.entriesPerLeaf} entries)…`);
      large = await seedLargeProject({ kind, url: store.url, ownerId: user.id, layout });
      say(`${kind}: large project: ${large.entries} entries, ${large.translations} translations (${large.reviewed} reviewed) in ${large.seconds.toFixed(1)} s`);

      await tolk.start();
      const call = apiClient(tolk.server.url, user.apiKey);
      small = await seedSmallProject(call);
      creates = await seedCreateTarget(call);
      say(`${kind}: small project through the API (2,000 entries, 4,000 translations) in ${small.seconds.toFixed(1)} s`);
      small.historyEntryId = await seedHistoryEntry(call, small);
    }

    const load = { seconds: options.seconds, warmupSeconds: options.warmupSeconds };
    const ceiling = await measure({ url: async () => bare.url }, BARE_SCENARIO, load);
    say(`${kind}: bare node:http ${ceiling.rps} req/s`);
    const { floor, floorProblem } = options.parts.has('floor') ? await floorOf({ kind, store, user, load, cleanup, ceiling }) : { floor: [], floorProblem: null };
    const headers = { authorization: `Bearer ${user.apiKey}` };
    const scenarios = [];
    for (const scenario of options.parts.has('scenarios') ? buildScenarios({ small, large, creates, tag }) : []) {
      // Profiling: each scenario on a server of its own, so that each profile says where that scenario's time went.
      if (options.cpuProf) await tolk.restart(scenario.id);
      const crashesBefore = tolk.crashes.length;
      const target = { url: (phase) => tolk.url(`${scenario.id}, before its ${phase}`) };
      const measured = await measure(target, scenario, { ...load, headers });
      await tolk.url(`${scenario.id}, after its measurement`);
      const crashes = tolk.crashes.length - crashesBefore;
      scenarios.push({ ...measured, errors: measured.errors + crashes, crashes, ratio: ratioOf(measured.rps, ceiling.rps), note: scenario.note });
      say(`${kind}: ${scenario.id}: ${measured.rps} req/s, p99 ${measured.p99_ms} ms, ${measured.errors} errors${crashes ? `, SERVER CRASHED ${crashes}×` : ''}`);
    }

    // after the scenarios, the log holds their writes' sets (each of one change): their size per million
    const historyAfterScenarios = scenarios.length > 0 ? await historyStorage(kind, store.url) : null;
    if (historyAfterScenarios) say(`${kind}: the change log after the scenarios: ${describeHistoryStorage(historyAfterScenarios)}`);

    if (kind === 'postgres' && options.parts.has('fleet')) {
      say(`${kind}: fleet-mixed: the mixed workload on one instance, then on three instances behind HAProxy and PgBouncer…`);
      const { one, fleet, instances: fleetSize } = await measureFleet({ postgresUrl: options.postgresUrl, cleanup, load, say });
      for (const measured of [one, fleet]) {
        const note = measured === one ? 'the mixed workload on one instance of the fleet, directly (through PgBouncer)' : `the mixed workload through HAProxy on ${fleetSize} instances (bench/lib/fleet.mjs)`;
        scenarios.push({ ...measured, crashes: 0, ratio: ratioOf(measured.rps, ceiling.rps), note });
        say(`${kind}: ${measured.name}: ${measured.rps} req/s, p99 ${measured.p99_ms} ms, ${measured.errors} errors`);
      }
    }
    const server = async (format) => {
      const url = await tolk.url(`before the large ${format} export`);
      return { url, pid: tolk.server.pid };
    };
    let largeExports = [];
    if (options.parts.has('exports')) {
      say(`${kind}: large project exports, one at a time…`);
      largeExports = await measureLargeExports({ server, apiKey: user.apiKey, projectId: large.projectId, languageCount: large.languages.length + 1 });
      await tolk.url('after the large exports');
    }
    const largeImport = options.parts.has('import') ? await importLarge({ kind, tolk, user, large, small }) : null;
    // after import-large, the log holds its million changes: its size per million recorded changes
    if (largeImport) {
      largeImport.history = await historyStorage(kind, store.url);
      say(`${kind}: the change log: ${describeHistoryStorage(largeImport.history)}`);
    }
    return {
      result: { store: kind, bare_rps: ceiling.rps, scenarios, history_after_scenarios: historyAfterScenarios, large_exports: largeExports, large_import: largeImport, floor },
      context: { storeLabel: store.label, bare: ceiling, large, small, quick: options.quick, seconds: options.seconds, warmupSeconds: options.warmupSeconds, log, crashes: tolk.crashes, floorProblem },
    };
  } catch (error) {
    const exit = tolk.server?.exitStatus();
    if (exit && error instanceof Error) error.message += `\ntolk serve had exited (code ${exit.code}, signal ${exit.signal}); its last output:\n${tolk.server.outputTail()}`;
    throw error;
  } finally {
    await tolk.stop();
    await store.dispose();
  }
}

/**
 * floor-read and floor-write on this store, counting against the bench user (floor.mjs). A floor that
 * fails is reported (`floorProblem`) without failing the store's run: the tolk scenarios still run.
 */
async function floorOf({ kind, store, user, load, cleanup, ceiling }) {
  say(`${kind}: the floor: the quota count alone, then with one durable write (bench/floor-server.mjs, not tolk)…`);
  try {
    const measured = await measureFloor({ databaseUrl: store.url, userId: user.id, cleanup, load });
    const floor = measured.map((row) => ({ ...row, crashes: 0, ratio: ratioOf(row.rps, ceiling.rps) }));
    for (const row of floor) say(`${kind}: ${row.name}: ${row.rps} req/s, p99 ${row.p99_ms} ms, ${row.errors} errors`);
    return { floor, floorProblem: null };
  } catch (error) {
    if (cleanup.closing) throw error;
    say(`${kind}: the floor FAILED: ${error instanceof Error ? error.message : error}`);
    return { floor: [], floorProblem: error instanceof Error ? error.message : String(error) };
  }
}

/** import-large on a fresh server (see large-import.mjs). */
async function importLarge({ kind, tolk, user, large, small }) {
  say(`${kind}: import-large: the large project's json export into an empty project, point reads meanwhile…`);
  const largeImport = await measureLargeImport({
    server: async () => ({ url: await tolk.url('before import-large'), pid: tolk.server.pid }),
    // a fresh server for the import itself: the heap the exports leave, which V8 keeps, would otherwise be its peak RSS
    fresh: async () => {
      await tolk.restart();
      return { url: await tolk.url('before import-large'), pid: tolk.server.pid };
    },
    apiKey: user.apiKey,
    large: { ...large, baseLanguage: LARGE_BASE_LANGUAGE },
    readEntryIds: small.entryIds,
  });
  say(`${kind}: import-large: ${largeImport.wall_s ?? 'failed'} s, peak RSS ${largeImport.peak_rss_mb} MB, point reads p99 ${largeImport.read_p99_ms} ms${largeImport.problem ? `, PROBLEM ${largeImport.problem}` : ''}`);
  await tolk.url('after import-large');
  return largeImport;
}
