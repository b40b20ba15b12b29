/** Charges the daily quota for API-key requests in the scope it is registered in. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chargeRequest, rateLimitHeaders } from '../../domain/quota/daily-quota.js';
import { AppError } from '../../errors.js';
import type { Db } from '../../store/schema.js';
import { principalOf } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A conditional request (If-None-Match) to this route is charged by the handler, once it knows
     * the answer is not a 304: a "not modified" answer must not count (contract).
     */
    chargesConditionalItself?: boolean;
  }
  interface FastifyRequest {
    quotaCharged: boolean;
  }
}

/** The quota meters API keys; requests of a signed-in browser are not counted (contract). */
const isMetered = (request: FastifyRequest) => request.principal?.authenticatedBy !== 'session';

/** Charges one request and sets the RateLimit-* headers on the reply (429 when the quota is used up). */
export async function chargeQuota(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.quotaCharged || !isMetered(request)) return;
  request.quotaCharged = true;
  reply.headers(rateLimitHeaders(await chargeRequest(db, principalOf(request))));
}

/** A conditional request to a route that charges it itself, once it knows the answer is no 304. */
export const isDeferred = (request: FastifyRequest) =>
  request.routeOptions.config.chargesConditionalItself === true && request.headers['if-none-match'] !== undefined;

/** Charges every request of the scope, after authentication (register after requireApiKey). */
export function meterRequests(scope: FastifyInstance, db: Db): void {
  scope.decorateRequest('quotaCharged', false);
  scope.addHook('onRequest', async (request, reply) => {
    if (!isDeferred(request)) await chargeQuota(db, request, reply);
  });
  // A deferred request that failed before its handler charged it (400, 404, …) still counts.
  scope.addHook('onSend', async (request, reply, payload) => {
    if (!isDeferred(request) || request.quotaCharged || reply.statusCode === 304 || !request.principal) return payload;
    try {
      await chargeQuota(db, request, reply);
    } catch (error) {
      // Already answering with an error; past the quota the count simply stays at the limit.
      if (!(error instanceof AppError)) throw error;
    }
    return payload;
  });
}
