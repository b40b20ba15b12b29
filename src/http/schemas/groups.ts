/** Group schemas. */
import { Type } from 'typebox';
import { DisplayName, GroupTechnicalName, Nullable, PageQuery, Timestamp } from './common.js';

export const Group = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  parentId: Nullable(Type.String()),
  technicalName: Type.String(),
  displayName: Type.String(),
  createdAt: Timestamp,
});

export const GroupSummary = Type.Object({
  id: Type.String(),
  displayName: Type.String(),
  technicalName: Type.String(),
  breadcrumbs: Type.Array(Type.String(), { description: 'ancestor ids, root first' }),
  breadcrumbNames: Type.Array(Type.String(), { description: 'ancestor display names, root first' }),
});

export const GroupListQuery = Type.Object({
  ...PageQuery.properties,
  parentId: Type.Optional(Type.String({ description: 'list the direct children of this group' })),
});

export const CreateGroupBody = Type.Object(
  { technicalName: GroupTechnicalName, displayName: DisplayName, parentId: Type.Optional(Nullable(Type.String())) },
  { additionalProperties: false },
);

export const UpdateGroupBody = Type.Object(
  {
    technicalName: Type.Optional(Nullable(GroupTechnicalName)),
    displayName: Type.Optional(Nullable(DisplayName)),
    parentId: Type.Optional(Nullable(Type.String({ description: 'move under this group; null moves to the top level' }))),
  },
  { additionalProperties: false },
);
