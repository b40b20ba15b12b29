/**
 * Request ids: one per request, in every log line of it (pino's `reqId`) and in the `x-request-id`
 * response header, so a client's report or a proxy's log can be matched with the server's.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * A caller's id goes into the logs as it is, so only a short token is taken: anything else could
 * forge log fields, break a log pipeline's parsing or blow up its index.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Fastify's `genReqId`: the incoming `X-Request-Id` when it is a safe token (a proxy or client that
 * already named the request), a new UUID otherwise. Fastify's own `requestIdHeader` option would
 * take the header unchecked, so it stays off.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const incoming = raw.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Puts the request's id on its reply. */
export function echoRequestId(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, request.id);
}

/** Echoes the id on every response of the instance, errors included (they are sent through onSend too). */
export function installRequestIdEcho(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    echoRequestId(request, reply);
    done(null, payload);
  });
}
