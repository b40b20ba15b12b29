/** The Group resource as the API shows it. */
import type { GroupRow } from '../../store/schema.js';

export interface GroupView {
  id: string;
  projectId: string;
  parentId: string | null;
  technicalName: string;
  displayName: string;
  createdAt: string;
}

/** Maps a stored group to its API shape. */
export function groupView(row: GroupRow): GroupView {
  return {
    id: row.id,
    projectId: row.project_id,
    parentId: row.parent_id,
    technicalName: row.technical_name,
    displayName: row.display_name,
    createdAt: row.created_at,
  };
}

/** Groups may nest this deep; a top-level group has depth 1 (contract). */
export const MAX_GROUP_DEPTH = 10;
