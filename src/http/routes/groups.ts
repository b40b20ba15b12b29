/** /projects/{id}/groups, /projects/{id}/groups/summary and /groups/{id}. */
import { Type } from 'typebox';
import { getGroup, listGroups, summarizeGroups } from '../../domain/groups/read-groups.js';
import { createGroup, deleteGroup, updateGroup } from '../../domain/groups/write-groups.js';
import { principalOf } from '../plugins/auth.js';
import { errors, IdParams, NoContent, Page } from '../schemas/common.js';
import { CreateGroupBody, Group, GroupListQuery, GroupSummary, UpdateGroupBody } from '../schemas/groups.js';
import { bearer, type RoutePlugin } from './route-options.js';

const tags = ['groups'];

export const groupRoutes: RoutePlugin = async (app, { db }) => {
  app.get(
    '/projects/:id/groups',
    { schema: { tags, security: bearer, params: IdParams, querystring: GroupListQuery, response: { 200: Page(Group), ...errors(400, 403, 404) } } },
    (request) => {
      const { parentId, ...page } = request.query;
      return listGroups(db, principalOf(request), request.params.id, parentId, page);
    },
  );

  app.get(
    '/projects/:id/groups/summary',
    { schema: { tags, security: bearer, params: IdParams, response: { 200: Type.Array(GroupSummary), ...errors(403, 404) } } },
    (request) => summarizeGroups(db, principalOf(request), request.params.id),
  );

  app.post(
    '/projects/:id/groups',
    { schema: { tags, security: bearer, params: IdParams, body: CreateGroupBody, response: { 200: Group, ...errors(400, 403, 404, 409) } } },
    (request) => createGroup(db, principalOf(request), request.params.id, request.body),
  );

  app.get(
    '/groups/:id',
    { schema: { tags, security: bearer, params: IdParams, response: { 200: Group, ...errors(403, 404) } } },
    (request) => getGroup(db, principalOf(request), request.params.id),
  );

  app.patch(
    '/groups/:id',
    { schema: { tags, security: bearer, params: IdParams, body: UpdateGroupBody, response: { 200: Group, ...errors(400, 403, 404, 409) } } },
    (request) => updateGroup(db, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/groups/:id',
    { schema: { tags, security: bearer, params: IdParams, response: { 204: NoContent, ...errors(403, 404) } } },
    async (request, reply) => {
      await deleteGroup(db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
