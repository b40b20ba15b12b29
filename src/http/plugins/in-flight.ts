/**
 * The requests whose work is still running, so that a shutdown closes the store only after them.
 * Node's server.close() waits for connections, not for work: a request whose client went away (a
 * load generator stopping, a browser tab closed) leaves its handler running on a closed connection,
 * and the store closed under it failed its next query ("driver has already been destroyed", logged
 * as an unexpected error). A request is counted while its hooks or its handler may query the store:
 * from onRequest to preParsing (the key check and quota count), and from preValidation (its body
 * read) until its reply is sent (onSend; a streamed export is past its last query by then, its
 * transaction ends before the first byte). Reading the body is not counted: a request whose client
 * went away while Fastify read it never goes on, and would hold every shutdown to its deadline.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

export class InFlight {
  readonly #running = new WeakSet<FastifyRequest>();
  #count = 0;
  #whenIdle: (() => void)[] = [];

  get count(): number {
    return this.#count;
  }

  /** Counts the app's requests while they may use the store (callback hooks: no promise per request). */
  install(app: FastifyInstance): void {
    app.addHook('onRequest', (request, _reply, next) => {
      this.#enter(request);
      next();
    });
    app.addHook('preParsing', (request, _reply, payload, next) => {
      this.#leave(request);
      next(null, payload);
    });
    app.addHook('preValidation', (request, _reply, next) => {
      this.#enter(request);
      next();
    });
    app.addHook('onSend', (request, _reply, _payload, next) => {
      this.#leave(request);
      next();
    });
    // A request that ended without a reply being sent through Fastify (none is known; a safety net).
    app.addHook('onResponse', (request, _reply, next) => {
      this.#leave(request);
      next();
    });
  }

  #enter(request: FastifyRequest): void {
    if (this.#running.has(request)) return;
    this.#running.add(request);
    this.#count += 1;
  }

  #leave(request: FastifyRequest): void {
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
