/**
 * The requests whose work is still running, so that a shutdown closes the store only after them.
 * Node's server.close() waits for connections, not for work: a request whose client went away (a
 * load generator stopping, a browser tab closed) leaves its handler running on a closed connection,
 * and the store closed under it failed its next query ("driver has already been destroyed", logged
 * as an unexpected error). Counted from the first hook to the reply being sent, which every
 * request reaches, answered or refused: a streamed export is past its last query by then (its
 * transaction ends before the first byte).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

export class InFlight {
  readonly #running = new WeakSet<FastifyRequest>();
  #count = 0;
  #whenIdle: (() => void)[] = [];

  get count(): number {
    return this.#count;
  }

  /** Counts the app's requests from onRequest to onSend (callback hooks: on every request, no promise each). */
  install(app: FastifyInstance): void {
    app.addHook('onRequest', (request, _reply, next) => {
      this.#running.add(request);
      this.#count += 1;
      next();
    });
    app.addHook('onSend', (request, _reply, _payload, next) => {
      this.#done(request);
      next();
    });
    // A request that ended without a reply being sent through Fastify (none is known; a safety net).
    app.addHook('onResponse', (request, _reply, next) => {
      this.#done(request);
      next();
    });
  }

  #done(request: FastifyRequest): void {
    if (!this.#running.delete(request)) return;
    this.#count -= 1;
    if (this.#count === 0) for (const resolve of this.#whenIdle.splice(0)) resolve();
  }

  /** Resolves true once no request is running, or false after `timeoutMs`. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.#count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#whenIdle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
