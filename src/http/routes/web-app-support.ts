/** Reads the web application needs beyond the spec's: a project's progress and the caller's invitations. */
import { Type } from 'typebox';
import { listInvitations } from '../../domain/members/invitations.js';
import { projectProgress } from '../../domain/projects/project-progress.js';
import { principalOf } from '../plugins/auth.js';
import { Invitation } from '../schemas/accounts.js';
import { errors, IdParams } from '../schemas/common.js';
import { ProjectProgress } from '../schemas/projects.js';
import { bearer, type RoutePlugin } from './route-options.js';

export const webAppSupportRoutes: RoutePlugin = async (app, { db, caches }) => {
  app.get(
    '/projects/:id/progress',
    { schema: { tags: ['projects'], security: bearer, params: IdParams, response: { 200: ProjectProgress, ...errors(403, 404) } } },
    (request) => projectProgress(db, caches, principalOf(request), request.params.id),
  );

  app.get('/invitations', { schema: { tags: ['members'], security: bearer, response: { 200: Type.Array(Invitation), ...errors() } } }, (request) =>
    listInvitations(db, principalOf(request)),
  );
};
