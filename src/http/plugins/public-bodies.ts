/**
 * Routes open to anyone take small bodies (contract "Web application": a few KiB, 413 beyond): parsing
 * a 1 MiB JSON body alone costs the event loop 0.1–0.5 s, which no stranger may make the server spend
 * at will. Authenticated routes keep the spec's 1 MiB, their requests counted against a quota.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { errorResponse } from '../schemas/common.js';

/** 8 KiB: the largest valid sign-up takes ~2.3 KiB as UTF-8 and ~6 KiB with every character JSON-escaped. */
export const PUBLIC_BODY_LIMIT = 8 * 1024;

const TOO_LARGE = `the body is over ${PUBLIC_BODY_LIMIT.toLocaleString('en')} bytes, the limit of routes open to anyone (ERR_PAYLOAD_TOO_LARGE)`;

/**
 * Gives every route registered in `scope` after this call (its child plugins' too) the small body
 * limit, a 413 that names it, and that 413 in its OpenAPI document. Register only public routes there.
 */
export function limitPublicBodies(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.bodyLimit = Math.min(route.bodyLimit ?? PUBLIC_BODY_LIMIT, PUBLIC_BODY_LIMIT);
    if (route.schema?.body) route.schema.response = { ...(route.schema.response as object), 413: errorResponse(413, TOO_LARGE) };
  });
  nameBodyLimit(scope, TOO_LARGE);
}

/**
 * Answers a body over the limit of `scope`'s routes with `message` (Fastify's own 413 says nothing of
 * the limit); every other error goes on to the app's handler.
 */
export function nameBodyLimit(scope: FastifyInstance, message: string): void {
  scope.setErrorHandler((error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new AppError('ERR_PAYLOAD_TOO_LARGE', message);
    throw error;
  });
}
