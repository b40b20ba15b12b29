/** Bearer API-key authentication for the scope it is registered in (spec section 5). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { Principal } from '../../domain/access/project-access.js';
import { authenticateKey } from '../../domain/keys/api-keys.js';
import type { Db } from '../../store/schema.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const unauthorized = (message: string) =>
  new AppError('ERR_UNAUTHORIZED', message, undefined, { 'www-authenticate': 'Bearer realm="tolk"' });

/** The bearer token of the request, or an error saying what is wrong with the header. */
function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('an API key is required: send "Authorization: Bearer <key>"');
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) throw unauthorized('the Authorization header must be "Bearer <key>"');
  return match[1];
}

/** Requires a valid key on every route registered in `scope` (and its children). */
export function requireApiKey(scope: FastifyInstance, db: Db): void {
  scope.addHook('onRequest', async (request) => {
    const principal = await authenticateKey(db, bearerToken(request));
    if (!principal) throw unauthorized('the API key is invalid, revoked or expired');
    request.principal = principal;
  });
}

/** The caller of an authenticated route. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized('an API key is required');
  return request.principal;
}
