/** Reads the web application needs beyond the spec's: a project's progress and the caller's invitations. */
import { Type } from 'typebox';
import { listInvitations } from '../../domain/members/invitations.js';
import { projectProgress } from '../../domain/projects/project-progress.js';
import { principalOf } from '../plugins/auth.js';
import { Invitation } from '../schemas/accounts.js';
import { errors, IdParams } from '../schemas/common.js';
import { bearer, type RoutePlugin } from './route-options.js';

const Progress = Type.Object({
  entryCount: Type.Integer(),
  languages: Type.Array(Type.Object({ language: Type.String(), translated: Type.Integer(), untranslated: Type.Integer() }), {
    description: "one item per translation language, in the project's order",
  }),
});

export const webAppSupportRoutes: RoutePlugin = async (app, { db }) => {
  app.get(
    '/projects/:id/progress',
    { schema: { tags: ['projects'], security: bearer, params: IdParams, response: { 200: Progress, ...errors(403, 404) } } },
    (request) => projectProgress(db, principalOf(request), request.params.id),
  );

  app.get('/invitations', { schema: { tags: ['members'], security: bearer, response: { 200: Type.Array(Invitation), ...errors() } } }, (request) =>
    listInvitations(db, principalOf(request)),
  );
};
