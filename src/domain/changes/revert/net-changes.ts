/**
 * The objects a revert puts back: the changes it undoes grouped by object, each netted to its first
 * `before` and last `after` (CONTRACT "History": a set's changes to one object count as one).
 */
import { fieldsFromLog } from '../../../store/content-writes/change-log.js';
import type { ChangeRow, LoggedObject } from '../../../store/repositories/revert-reads.js';

export type Target = 'project' | 'group' | 'entry' | 'translation';

export interface NettedObject {
  target: Target;
  /** how the object is found now */
  object: LoggedObject;
  /** the change that first touched it (a conflict names it) */
  firstChangeId: string;
  groupId: string | null;
  entryId: string | null;
  language: string | null;
  /** the key after its last change (before it, for a delete) */
  key: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

function objectOf(row: ChangeRow): LoggedObject {
  switch (row.target) {
    case 'translation':
      return { target: 'translation', projectId: row.project_id, entryId: row.entry_id!, language: row.language! };
    case 'entry':
      return { target: 'entry', projectId: row.project_id, entryId: row.entry_id! };
    case 'group':
      return { target: 'group', projectId: row.project_id, groupId: row.group_id! };
    default:
      return { target: 'project', projectId: row.project_id };
  }
}

const identityOf = (object: LoggedObject): string => {
  switch (object.target) {
    case 'translation':
      return `translation:${object.entryId}:${object.language}`;
    case 'entry':
      return `entry:${object.entryId}`;
    case 'group':
      return `group:${object.groupId}`;
    case 'project':
      return 'project';
  }
};

/** The changes (in the order they were made) netted per object, in the order each object was first touched. */
export function netChanges(rows: readonly ChangeRow[]): NettedObject[] {
  const byObject = new Map<string, NettedObject>();
  for (const row of rows) {
    const object = objectOf(row);
    const identity = identityOf(object);
    const known = byObject.get(identity);
    if (known) {
      known.after = fieldsFromLog(row.target, row.after_json);
      known.key = row.key;
      known.groupId = row.group_id;
      continue;
    }
    byObject.set(identity, {
      target: row.target as Target,
      object,
      firstChangeId: row.id,
      groupId: row.group_id,
      entryId: row.entry_id,
      language: row.language,
      key: row.key,
      before: fieldsFromLog(row.target, row.before_json),
      after: fieldsFromLog(row.target, row.after_json),
    });
  }
  return [...byObject.values()];
}

export { identityOf };
