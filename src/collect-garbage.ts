/**
 * A full garbage collection on request, for the few bulk operations whose garbage comes in hundreds of
 * megabytes (a large import: the request's JSON tree, the plan's working maps, each insert's bound
 * values). V8 collects its old generation only once it has grown well past what is live, so the
 * process's memory rose to twice what the import held: import-large peaked at 611 MB of RSS on SQLite
 * and 503 MB on PostgreSQL without these collections, 458 and 467 MB with them (bench README).
 *
 * Node offers `gc()` only to a process started with --expose-gc; setting the flag at run time exposes
 * it to new contexts, from which it is taken once, on first use. Where that fails, collecting is
 * simply left to V8.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collector: ((options?: { type: 'minor' }) => void) | undefined;
/** The heap in use right after this module's last collection. */
let liveAfterLast = 0;

function exposedCollector(): (options?: { type: 'minor' }) => void {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    if (typeof gc === 'function') return (options) => gc(options);
  } catch {
    // no collector to be had: V8 collects when it decides to
  }
  return () => {};
}

/** Runs a full collection now (stops the process for ~100 ms with a few hundred MB live: for bulk work only). */
export function collectGarbage(): void {
  collector ??= exposedCollector();
  collector();
  liveAfterLast = process.memoryUsage().heapUsed;
}

/** Garbage a bulk write may leave between two collections. */
const GROWTH_BEFORE_COLLECTING = 64 * 1024 * 1024;

/**
 * Collects only once the heap has grown by `growth` bytes since the last collection: a bulk write's
 * garbage per row differs by store (PostgreSQL's driver encodes every bound value again), and each
 * collection pauses every other request for a moment.
 */
export function collectGarbageWhenGrown(growth = GROWTH_BEFORE_COLLECTING): void {
  if (process.memoryUsage().heapUsed - liveAfterLast > growth) collectGarbage();
}

/**
 * Collects the young generation only (~1 ms). For work that makes many large buffers and few
 * JavaScript objects, such as reading an export's spool files back: the buffers' memory lies outside
 * the heap, the heap hardly grows, and V8 frees those buffers only once they pass its external memory
 * limit (seen: ~25 MB of dead 1 MB pieces at the end of a large export).
 */
export function collectYoungGarbage(): void {
  collector ??= exposedCollector();
  collector({ type: 'minor' });
}
