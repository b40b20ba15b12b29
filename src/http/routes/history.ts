/** GET /projects/{id}/change-sets and GET /projects/{id}/changes: reading the history (CONTRACT "History"). */
import { listChanges, listChangeSets } from '../../domain/changes/read-history.js';
import { principalOf } from '../plugins/auth.js';
import { errors, IdParams, Page } from '../schemas/common.js';
import { Change, ChangeListQuery, ChangeSet, ChangeSetListQuery } from '../schemas/history.js';
import { bearer, type RoutePlugin } from './route-options.js';
import { sendSerializedOnce } from './serialized-once.js';

const tags = ['history'];

/** The history routes: readers of the project's entries may read them. */
export const historyRoutes: RoutePlugin = async (app, { db, caches }) => {
  app.get(
    '/projects/:id/change-sets',
    {
      schema: {
        tags,
        security: bearer,
        description: "The project's change sets (one per write), newest first; with afterVersion, those after it, oldest first (canReadEntries)",
        params: IdParams,
        querystring: ChangeSetListQuery,
        response: { 200: Page(ChangeSet), ...errors(400, 403, 404) },
      },
    },
    async (request, reply) => sendSerializedOnce(reply, await listChangeSets(db, caches, principalOf(request), request.params.id, request.query)),
  );

  app.get(
    '/projects/:id/changes',
    {
      schema: {
        tags,
        security: bearer,
        description: "The project's changes, newest first (ties by id); with afterVersion, those after it, oldest first (canReadEntries)",
        params: IdParams,
        querystring: ChangeListQuery,
        response: { 200: Page(Change), ...errors(400, 403, 404) },
      },
    },
    async (request, reply) => sendSerializedOnce(reply, await listChanges(db, caches, principalOf(request), request.params.id, request.query)),
  );
};
