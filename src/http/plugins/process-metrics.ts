/** prom-client's default process metrics (CPU, memory, event loop lag, GC, handles), once per process. */
import { collectDefaultMetrics, Registry } from 'prom-client';

let shared: Registry | undefined;

/**
 * The process's metrics are the same whichever app reports them, and collecting them starts an
 * event-loop monitor and a GC observer that are never stopped: one set per process, not per app
 * (tests build hundreds of apps in one process). Not prom-client's global registry, which any
 * dependency could write into.
 */
export function processRegistry(): Registry {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  return shared;
}
