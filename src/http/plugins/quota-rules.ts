/**
 * What a route's config says about the daily quota, read by both the key check (auth.ts counts a key's
 * request in the same round trip on PostgreSQL) and the meter (quota.ts): one place, no cycle between them.
 */
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A conditional request (If-None-Match) to this route is charged by the handler, once it knows
     * the answer is not a 304: a "not modified" answer must not count (contract).
     */
    chargesConditionalItself?: boolean;
    /**
     * Requests to this route are neither counted nor refused: it tells the caller its own budget or
     * ends its own access (sign-out, revoking a key), which a used-up quota must never prevent.
     */
    quotaFree?: boolean;
  }
  interface FastifyRequest {
    quotaCharged: boolean;
  }
}

/** Whether the request's route is one the quota never counts nor refuses. */
export const isQuotaFree = (request: FastifyRequest) => request.routeOptions.config.quotaFree === true;

/** A conditional request to a route that charges it itself, once it knows the answer is no 304. */
export const isDeferred = (request: FastifyRequest) =>
  request.routeOptions.config.chargesConditionalItself === true && request.headers['if-none-match'] !== undefined;
