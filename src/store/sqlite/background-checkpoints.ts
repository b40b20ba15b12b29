/**
 * WAL checkpoints of the embedded store, off the event loop. SQLite's own (wal_autocheckpoint, every
 * 1,000 pages) runs inside whichever commit crosses the mark, synchronously: it copies the pages to
 * the database file and waits for its fsync, a few milliseconds in which the server answers nothing.
 * Counted under the bench's creates: 230 of ~15,500 commits took > 1 ms, 1.26 s of the 2.2 s all
 * commits took. A worker thread with connections of its own runs a PASSIVE checkpoint of each file
 * every CHECKPOINT_EVERY_MS instead (it never waits for, nor blocks, readers or the writer), and the
 * server's connections checkpoint nothing themselves while it runs: if the worker fails to start or
 * ends, they go back to SQLite's default, so the WAL never grows unchecked.
 *
 * No backstop while the worker runs: a PASSIVE checkpoint in the writer would get no further than the
 * worker's (both stop at the oldest reader's snapshot), and the one it did run fell on the commit of a
 * large import, whose WAL is larger than any mark: a 10,000-page backstop copied ~400 MB inside that
 * commit (import-large: a 2.8 s COMMIT, in which the server answered nothing).
 *
 * Under writes that never pause, though, a PASSIVE checkpoint never lets the WAL start over: SQLite
 * rewinds it only when a write begins after every frame was copied, and by the time the worker is
 * done, more have come. Saves spread over 100 entries grew it by 78 MB a second without end (810 MB
 * in 11 s on a 35 MB store), and each frame past the end of the file cost the kernel a page to zero:
 * 14 % of the server's CPU (perf, bench/ab.mjs's spread saves). So once the WAL holds more than
 * START_OVER_FRAMES, the worker asks the writer for one checkpoint of its own between two commits
 * (`startOver`): it copies the few frames since the worker's, and the next write starts the WAL over
 * from its beginning, reusing the file (the writers' journal_size_limit cuts the file back to that size
 * once a large import has made it longer). A RESTART checkpoint in the worker was tried first: it had
 * to catch the writer between two commits, and mostly did not (the WAL still reached 7-38 MB of the
 * test's 51). Measured: the spread saves' WAL holds at 64 MB, at the same rate and p99 (5 ms).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { WAL_KEPT_BYTES } from './connect.js';

const CHECKPOINT_EVERY_MS = 100;
/** WAL frames (pages of 4 KiB) past which the worker asks the writer to start the WAL over (`startOver`). */
export const START_OVER_FRAMES = WAL_KEPT_BYTES / 4_096;
/** wal_autocheckpoint's value for "never": the worker checkpoints. */
const WORKER_CHECKPOINTS = 0;
/** SQLite's default, for when the worker is gone. */
const SQLITE_DEFAULT_PAGES = 1_000;

// Plain CommonJS evaluated as the worker's script: it runs the same way from dist/ and from the
// TypeScript sources under the tests, and loads the driver from the path the server resolved.
const WORKER_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const files = workerData.paths.map((path) => {
  const database = new SQLite(path, { fileMustExist: true });
  database.pragma('busy_timeout = 0');
  return database;
});
const checkpoint = () => {
  files.forEach((database, file) => {
    try {
      const [{ log, checkpointed }] = database.pragma('wal_checkpoint(PASSIVE)');
      // only once this checkpoint copied every frame (no reader held it back): the writer's own then
      // copies just the frames written meanwhile, never a large import's hundreds of MB on the event loop
      if (log >= workerData.startOverFrames && checkpointed === log) parentPort.postMessage({ startOver: file });
    } catch { /* busy: the next turn tries again */ }
  });
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  for (const database of files) database.close();
  parentPort.close();
});
parentPort.postMessage('started');
`;

export interface BackgroundCheckpoints {
  /** Whether the worker is running (false once it ended or failed: SQLite checkpoints in the commits again). */
  readonly running: boolean;
  /** Ends the worker after a last checkpoint; resolves once its connections are closed. */
  stop(): Promise<void>;
}

/** Writers whose WAL is being started over (one checkpoint at a time each). */
const startingOver = new WeakSet<Kysely<Database>>();

/**
 * The writer's own checkpoint, between two of its commits (a pragma waits for the writer and commits
 * the open group first: read-write-driver.ts): the worker has just copied nearly every frame, so it
 * copies the few since, and the next write starts the WAL over. PASSIVE, so it never waits for a reader.
 */
function startOver(writer: Kysely<Database>): void {
  if (startingOver.has(writer)) return;
  startingOver.add(writer);
  void sql`pragma wal_checkpoint(PASSIVE)`
    .execute(writer)
    .catch(() => {})
    .finally(() => startingOver.delete(writer));
}

const setAutocheckpoint = (db: Kysely<Database>, pages: number) => sql.raw(`pragma wal_autocheckpoint = ${pages}`).execute(db);

/**
 * Starts checkpointing the WAL files `paths` in a worker; `writers` are the server's connections to
 * them, whose own checkpoints stop while it runs (the tests shorten the turn and the start-over mark).
 * Resolves once the worker has opened its files; if it cannot start, nothing changes (SQLite
 * checkpoints as it always did) and `running` is false.
 */
export async function startBackgroundCheckpoints(
  paths: readonly string[],
  writers: readonly Kysely<Database>[],
  { everyMs = CHECKPOINT_EVERY_MS, startOverFrames = START_OVER_FRAMES }: { everyMs?: number; startOverFrames?: number } = {},
): Promise<BackgroundCheckpoints> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SCRIPT, {
    eval: true,
    workerData: { paths, driver, everyMs, startOverFrames },
    // It allocates next to nothing: a small heap keeps its isolate's own memory small.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16, stackSizeMb: 1 },
  });
  // Not what keeps the process alive while it runs (stop() holds it for its last checkpoint); a
  // failure ends it, and its exit restores the default.
  worker.unref();
  worker.on('error', () => {});
  let alive = true;
  const ended = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      alive = false;
      resolve();
    }),
  );
  const started = await Promise.race([new Promise<boolean>((resolve) => worker.once('message', () => resolve(true))), ended.then(() => false)]);
  worker.on('message', (message: { startOver?: number }) => {
    const writer = message.startOver === undefined ? undefined : writers[message.startOver];
    if (writer) startOver(writer);
  });
  let restored = ended;
  if (started) {
    for (const writer of writers) await setAutocheckpoint(writer, WORKER_CHECKPOINTS);
    // Whenever the worker ends (already, during the lines above, included), SQLite's own checkpoints come back.
    restored = ended.then(async () => {
      for (const writer of writers) await setAutocheckpoint(writer, SQLITE_DEFAULT_PAGES).catch(() => {});
    });
  }
  return {
    get running() {
      return started && alive;
    },
    async stop() {
      // Unreferenced, the worker would not keep the process alive for its last checkpoint: a server
      // closing its store (nothing else left to wait for) would exit here, before the rest of the close.
      worker.ref();
      worker.postMessage('stop');
      await restored;
    },
  };
}
