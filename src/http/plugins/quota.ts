/** Charges the daily quota for the requests (API key or web session) of the scope it is registered in. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chargeRequest, rateLimitHeaders } from '../../domain/quota/daily-quota.js';
import { AppError } from '../../errors.js';
import type { Db } from '../../store/schema.js';
import { principalOf } from './auth.js';
import { isDeferred, isQuotaFree } from './quota-rules.js';

/**
 * Whether the request is still to be counted: key and session requests alike (contract "Web
 * application": nothing an account can do is unmetered), once, unless its route is quota-free.
 */
const uncharged = (request: FastifyRequest) => !request.quotaCharged && !isQuotaFree(request);

/** Charges one request and sets the RateLimit-* headers on the reply (429 when the quota is used up). */
export async function chargeQuota(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!uncharged(request)) return;
  request.quotaCharged = true;
  reply.headers(rateLimitHeaders(await chargeRequest(db, principalOf(request))));
}

/**
 * Charges every request of the scope, after authentication (register after requireApiKey). Callback
 * hooks: most requests need nothing of them here (on PostgreSQL the key check counted the request
 * already), and an async hook would cost each of those a promise anyway.
 */
export function meterRequests(scope: FastifyInstance, db: Db): void {
  scope.decorateRequest('quotaCharged', false);
  scope.addHook('onRequest', (request, reply, done) => {
    if (isDeferred(request) || !uncharged(request)) return done();
    chargeQuota(db, request, reply).then(() => done(), done);
  });
  // A deferred request that failed before its handler charged it (400, 404, …) still counts.
  scope.addHook('onSend', (request, reply, payload, done) => {
    if (!isDeferred(request) || !uncharged(request) || reply.statusCode === 304 || !request.principal) return done(null, payload);
    chargeQuota(db, request, reply).then(
      () => done(null, payload),
      // Already answering with an error; past the quota the count simply stays at the limit.
      (error: unknown) => (error instanceof AppError ? done(null, payload) : done(error as Error)),
    );
  });
}
