/** Liveness and readiness probes, outside the authenticated API (no key, never counted). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import type { Store } from '../../store/open-store.js';
import type { InFlight } from '../plugins/in-flight.js';

const Status = Type.Object({ status: Type.String() });

/** What the readiness probe needs to know of the process. */
export interface Lifecycle {
  /** shutting down: a load balancer should send nothing new here */
  draining: boolean;
  /** the requests still running, which the store must outlive */
  readonly inFlight: InFlight;
}

/** GET /healthz: the process is up. GET /readyz: the database answers and the process is not shutting down (503 otherwise). */
export function healthRoutes(store: Store, lifecycle: Lifecycle): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/healthz', { schema: { tags: ['health'], response: { 200: Status } } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { tags: ['health'], response: { 200: Status } } }, async () => {
      if (lifecycle.draining) throw new AppError('ERR_UNAVAILABLE', 'shutting down');
      try {
        // a SELECT: on SQLite it takes the reader, so a long write (an import) does not fail the probe
        await store.db.selectNoFrom(sql<number>`1`.as('one')).execute();
      } catch {
        throw new AppError('ERR_UNAVAILABLE', 'the database does not answer');
      }
      return { status: 'ready' };
    });
  };
}
