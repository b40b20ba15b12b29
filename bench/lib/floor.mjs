/**
 * floor-read and floor-write: bench/floor-server.mjs (not tolk) measured on the store of the run, right
 * after the bare ceiling. Every tolk request is counted exactly in the shared store, and every save is
 * durable before it is answered: these two rows are the least that costs on this stack, so the table
 * shows how far each tolk scenario is from what no implementation here could beat (see bench/README.md,
 * "The floor").
 */
import { measure } from './load.mjs';
import { freePort, startNodeProcess } from './processes.mjs';
import { varying } from './scenarios.mjs';

/**
 * The floor server starts cold, while tolk's has served the seeding (thousands of requests) before its
 * scenarios: each floor scenario warms up at least this long, --quick included. A tmp probe on this machine
 * (PostgreSQL floor-read, 2 s rounds on one fresh server): 4,630 → 9,319 → 9,632 → 9,541 req/s.
 */
const FLOOR_MIN_WARMUP_S = 3;

let saves = 0;

/**
 * The two floor scenarios over a floor server that answered `/floor/ready` with `ready`: `rows` in its
 * table, and how its count and its save commit (`counting`, `saving`) for the notes.
 */
export function floorScenarios({ rows, counting, saving }) {
  const save = () => ({
    method: 'PUT',
    path: `/floor/texts/${1 + Math.floor(Math.random() * rows)}`,
    body: JSON.stringify({ text: `Floor text ${(saves += 1)}` }),
    headers: { 'content-type': 'application/json' },
  });
  return [
    {
      id: 'floor-read',
      connections: 10,
      requests: [{ method: 'GET', path: '/floor/read' }],
      note: `not tolk: GET, the quota count as tolk runs it, a fixed JSON body; count: ${counting}`,
    },
    {
      id: 'floor-write',
      connections: 10,
      requests: varying(save),
      note: `not tolk: PUT, the same count, then one single-row upsert (random row of ${rows.toLocaleString('en')}, new text) committed before the answer; save: ${saving}`,
    },
  ];
}

/**
 * Starts bench/floor-server.mjs on `databaseUrl` (counting against the user `userId`), measures
 * floor-read and floor-write with `load` (`{ seconds, warmupSeconds }`, the warm-up at least
 * FLOOR_MIN_WARMUP_S), stops the server; returns the two measurements, each with its note, its
 * `warmupSeconds` and, when it had errors, `output` (the server's last lines).
 */
export async function measureFloor({ databaseUrl, userId, cleanup, load }) {
  const port = await freePort();
  const server = await startNodeProcess({
    name: 'floor server',
    args: ['bench/floor-server.mjs'],
    env: { PORT: String(port), DATABASE_URL: databaseUrl, FLOOR_USER_ID: userId, LOG_LEVEL: 'warn' },
    port,
    readyPath: '/floor/ready',
    cleanup,
    pipeStdin: true,
  });
  try {
    const ready = await (await fetch(`${server.url}/floor/ready`)).json();
    const warmLoad = { ...load, warmupSeconds: Math.max(load.warmupSeconds, FLOOR_MIN_WARMUP_S) };
    const measured = [];
    for (const scenario of floorScenarios(ready)) {
      const row = await measure({ url: async (phase) => alive(server, `before the ${phase} of ${scenario.id}`) }, scenario, warmLoad);
      alive(server, `after ${scenario.id}`);
      const described = { ...row, note: scenario.note, warmupSeconds: warmLoad.warmupSeconds };
      measured.push(row.errors > 0 ? { ...described, output: server.outputTail() } : described);
    }
    return measured;
  } finally {
    await server.stop();
  }
}

/** The server's URL; throws if it has exited (a floor that fails is no floor). */
function alive(server, when) {
  const exit = server.exitStatus();
  if (exit) throw new Error(`the floor server exited (code ${exit.code}, signal ${exit.signal}) ${when}:\n${server.outputTail()}`);
  return server.url;
}
