/** Charges the daily quota for API-key requests in the scope it is registered in. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chargeRequest, rateLimitHeaders } from '../../domain/quota/daily-quota.js';
import type { Db } from '../../store/schema.js';
import { principalOf } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route charges the quota itself, after deciding it is not a 304: a conditional GET
     * answered "not modified" must not count (contract).
     */
    chargesQuotaItself?: boolean;
  }
}

/** Charges one request and sets the RateLimit-* headers on the reply (429 when the quota is used up). */
export async function chargeQuota(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.headers(rateLimitHeaders(await chargeRequest(db, principalOf(request))));
}

/** Charges every request of the scope, after authentication (register after requireApiKey). */
export function meterRequests(scope: FastifyInstance, db: Db): void {
  scope.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.chargesQuotaItself) return;
    await chargeQuota(db, request, reply);
  });
}
