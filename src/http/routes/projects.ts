/** /projects and /projects/{id}. */
import * as useCases from '../../domain/projects/project-use-cases.js';
import { principalOf } from '../plugins/auth.js';
import { errors, IdParams, NoContent, Page, PageQuery } from '../schemas/common.js';
import { CreateProjectBody, Project, ProjectListItem, UpdateProjectBody } from '../schemas/projects.js';
import { bearer, type RoutePlugin } from './route-options.js';

const tags = ['projects'];

export const projectRoutes: RoutePlugin = async (app, { db }) => {
  app.get(
    '/projects',
    { schema: { tags, security: bearer, querystring: PageQuery, response: { 200: Page(ProjectListItem), ...errors(400) } } },
    (request) => useCases.listProjects(db, principalOf(request), request.query),
  );

  app.post(
    '/projects',
    { schema: { tags, security: bearer, body: CreateProjectBody, response: { 200: Project, ...errors(400) } } },
    (request) => useCases.createProject(db, principalOf(request), request.body),
  );

  app.get(
    '/projects/:id',
    { schema: { tags, security: bearer, params: IdParams, response: { 200: Project, ...errors(403, 404) } } },
    (request) => useCases.getProject(db, principalOf(request), request.params.id),
  );

  app.patch(
    '/projects/:id',
    { schema: { tags, security: bearer, params: IdParams, body: UpdateProjectBody, response: { 200: Project, ...errors(400, 403, 404) } } },
    (request) => useCases.updateProject(db, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/projects/:id',
    { schema: { tags, security: bearer, params: IdParams, response: { 204: NoContent, ...errors(403, 404) } } },
    async (request, reply) => {
      await useCases.deleteProject(db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
