/** Member schemas (the contract's members extension). */
import { Type } from 'typebox';
import { PageQuery, Timestamp } from './common.js';

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('editor'), Type.Literal('reviewer'), Type.Literal('translator'), Type.Literal('viewer')], {
  description: 'admin, editor, reviewer, translator or viewer (the owner has no role); a reviewer translates and reviews, nothing else',
});

export const Member = Type.Object({
  userId: Type.String({ description: "the member's user id; while the invitation is pending, the invitation's own id (PATCH and DELETE take it)" }),
  email: Type.String({ description: 'while pending, the address as the inviter wrote it' }),
  firstName: Type.String({ description: 'empty while pending: an invitation tells nothing about the account of the address, or whether there is one' }),
  lastName: Type.String({ description: 'empty while pending' }),
  role: Type.String(),
  confirmed: Type.Boolean({ description: 'false while the invitation is pending' }),
  isOverLimit: Type.Boolean({ description: 'beyond the owner\'s member limit in acceptance order: read access only' }),
  createdAt: Timestamp,
});

export const InvitedMember = Type.Object({
  ...Member.properties,
  invitationToken: Type.String({ description: 'the one-time token that accepts this invitation (POST …/members/accept {token}): in this answer only, never again' }),
  invitationUrl: Type.String({ description: "the web app's page that accepts the invitation with the token (`/invitations/accept?project=…#token=…`): give it to the invitee" }),
});

export const AcceptBody = Type.Object(
  { token: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: "the invitation's one-time token, from the inviter's link" })) },
  { additionalProperties: false },
);

export const MemberParams = Type.Object({ id: Type.String(), userId: Type.String() });
export const MemberListQuery = PageQuery;
export const InviteBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), role: Role }, { additionalProperties: false });
export const RoleBody = Type.Object({ role: Role }, { additionalProperties: false });
export const TransferBody = Type.Object({ userId: Type.String({ minLength: 1 }) }, { additionalProperties: false });
