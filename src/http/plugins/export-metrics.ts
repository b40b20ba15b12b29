/** Export durations by format and outcome, from the request's start to the body's end or abort. */
import { Readable } from 'node:stream';
import type { FastifyInstance, onRequestHookHandler, onSendHookHandler } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** set by export routes: their 200 answers are measured as exports of this format */
    exportFormat?: string;
  }
}

/** Seconds; exports of large projects are built in memory and streamed, so the range reaches a minute. */
const EXPORT_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Bodies that failed while being written: their close is a failure, not a client that went away. */
const failedBodies = new WeakSet<object>();

type Outcome = 'ok' | 'aborted' | 'failed';

/**
 * ok: the whole body was handed to the connection; failed: a 5xx, or the body stream broke;
 * aborted: the client went away first. 304s and 4xx are not exports (they are in the request metrics).
 */
export function outcomeOf(statusCode: number, finished: boolean, bodyFailed: boolean): Outcome | undefined {
  if (statusCode >= 500 || bodyFailed) return 'failed';
  if (statusCode !== 200) return undefined;
  return finished ? 'ok' : 'aborted';
}

/** Measures the answers of routes whose config names an `exportFormat`. */
export function observeExports(app: FastifyInstance, registry: Registry): void {
  const durations = new Histogram({
    name: 'tolk_export_duration_seconds',
    help: 'project exports, from the request to the end of the body; outcome ok, aborted (client gone) or failed',
    labelNames: ['format', 'outcome'] as const,
    buckets: EXPORT_BUCKETS,
    registers: [registry],
  });
  // Only the export routes get the hooks (added as each is registered): no other request pays for them.
  app.addHook('onRoute', (route) => {
    const format = route.config?.exportFormat;
    if (!format) return;
    const measure: onRequestHookHandler = (_request, reply, done) => {
      reply.raw.once('close', () => {
        const outcome = outcomeOf(reply.statusCode, reply.raw.writableFinished, failedBodies.has(reply.raw));
        if (outcome) durations.observe({ format, outcome }, reply.elapsedTime / 1000);
      });
      done();
    };
    const watchBody: onSendHookHandler = (_request, reply, payload, done) => {
      // Fastify destroys the body without an error when the client leaves; an error is a real failure.
      if (payload instanceof Readable) payload.once('error', () => failedBodies.add(reply.raw));
      done(null, payload);
    };
    route.onRequest = [measure, ...[route.onRequest ?? []].flat()];
    route.onSend = [...[route.onSend ?? []].flat(), watchBody];
  });
}
