/** GET /projects/{id}/checks: the project's message problems (CONTRACT, "Checks"). */
import type { Kysely } from 'kysely';
import { listChecks } from '../../domain/checks/list-checks.js';
import type { Database } from '../../store/schema.js';
import { principalOf } from '../plugins/auth.js';
import { ChecksQuery, MessageCheck } from '../schemas/checks.js';
import { errors, IdParams, Page } from '../schemas/common.js';
import { bearer, type RoutePlugin } from './route-options.js';

/** Registers the checks route; the problem list is made from a snapshot read through `reader`. */
export function checkRoutes(reader: Kysely<Database>): RoutePlugin {
  return async (app, { db, caches }) => {
    app.get(
      '/projects/:id/checks',
      {
        schema: {
          tags: ['checks'],
          security: bearer,
          params: IdParams,
          querystring: ChecksQuery,
          response: { 200: Page(MessageCheck), ...errors(400, 403, 404) },
        },
      },
      (request) => listChecks(db, reader, caches, principalOf(request), request.params.id, request.query),
    );
  };
}
