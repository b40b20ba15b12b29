/** Member schemas (the contract's members extension). */
import { Type } from 'typebox';
import { PageQuery, Timestamp } from './common.js';

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('editor'), Type.Literal('translator'), Type.Literal('viewer')], {
  description: 'admin, editor, translator or viewer (the owner has no role)',
});

export const Member = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: Type.String(),
  confirmed: Type.Boolean({ description: 'false while the invitation is pending' }),
  isOverLimit: Type.Boolean({ description: 'beyond the owner\'s member limit in acceptance order: read access only' }),
  createdAt: Timestamp,
});

export const MemberParams = Type.Object({ id: Type.String(), userId: Type.String() });
export const MemberListQuery = PageQuery;
export const InviteBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), role: Role }, { additionalProperties: false });
export const RoleBody = Type.Object({ role: Role }, { additionalProperties: false });
export const TransferBody = Type.Object({ userId: Type.String({ minLength: 1 }) }, { additionalProperties: false });
