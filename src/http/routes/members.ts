/** /projects/{id}/members…, and /projects/{id}/transfer-ownership. */
import { acceptInvitation, inviteMember } from '../../domain/members/invitations.js';
import * as useCases from '../../domain/members/member-use-cases.js';
import { getProject } from '../../domain/projects/project-use-cases.js';
import { principalOf } from '../plugins/auth.js';
import { errors, IdParams, NoContent, Page } from '../schemas/common.js';
import { AcceptBody, InviteBody, InvitedMember, Member, MemberListQuery, MemberParams, RoleBody, TransferBody } from '../schemas/members.js';
import { Project } from '../schemas/projects.js';
import { bearer, type RoutePlugin } from './route-options.js';

const tags = ['members'];

/** The member routes; invitation links start with `publicUrl` (PUBLIC_URL), else with the inviter's own request's origin. */
export const memberRoutes = (publicUrl?: string): RoutePlugin => async (app, { db }) => {
  app.get(
    '/projects/:id/members',
    { schema: { tags, security: bearer, params: IdParams, querystring: MemberListQuery, response: { 200: Page(Member), ...errors(400, 403, 404) } } },
    (request) => useCases.listMembers(db, principalOf(request), request.params.id, request.query),
  );

  app.post(
    '/projects/:id/members',
    { schema: { tags, security: bearer, params: IdParams, body: InviteBody, response: { 200: InvitedMember, ...errors(400, 403, 404, 409) } } },
    async (request) => {
      const invited = await inviteMember(db, principalOf(request), request.params.id, request.body);
      const base = publicUrl ?? `${request.protocol}://${request.host}`;
      // The token goes in the fragment, which browsers never send: no server or proxy log records it.
      const project = new URLSearchParams({ project: request.params.id });
      const token = new URLSearchParams({ token: invited.invitationToken });
      return { ...invited, invitationUrl: `${base}/invitations/accept?${project}#${token}` };
    },
  );

  app.post(
    '/projects/:id/members/accept',
    {
      schema: {
        tags,
        security: bearer,
        description:
          'The invitee accepts: an account made by an administrator or with a verified e-mail address accepts the invitation to its address; ' +
          "anyone else accepts with the invitation's one-time token (403 otherwise)",
        params: IdParams,
        body: AcceptBody,
        response: { 200: Member, ...errors(400, 403, 404) },
      },
      // No body at all (the proved invitee's usual call) is an empty one.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    (request) => acceptInvitation(db, principalOf(request), request.params.id, request.body.token),
  );

  app.patch(
    '/projects/:id/members/:userId',
    { schema: { tags, security: bearer, params: MemberParams, body: RoleBody, response: { 200: Member, ...errors(400, 403, 404) } } },
    (request) => useCases.changeRole(db, principalOf(request), request.params.id, request.params.userId, request.body.role),
  );

  app.delete(
    '/projects/:id/members/:userId',
    { schema: { tags, security: bearer, params: MemberParams, response: { 204: NoContent, ...errors(403, 404) } } },
    async (request, reply) => {
      await useCases.removeMember(db, principalOf(request), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/projects/:id/transfer-ownership',
    { schema: { tags, security: bearer, params: IdParams, body: TransferBody, response: { 200: Project, ...errors(400, 403, 404) } } },
    async (request) => {
      const principal = principalOf(request);
      await useCases.transferOwnership(db, principal, request.params.id, request.body.userId);
      return getProject(db, principal, request.params.id);
    },
  );
};
