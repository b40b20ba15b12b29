/**
 * What an import compares its files with: the project's groups and entries by path (group names from
 * the top, then the entry's name; a top-level key's path is its name alone), each entry with every
 * translation it has and the review state of those that have one (import-reads.ts). Read in keyset
 * batches, like an export.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { groupPaths } from '../groups/group-paths.js';
import { importBatch, type ImportCursor, type ImportRow } from '../../store/repositories/import-reads.js';
import { listProjectGroups } from '../../store/repositories/groups.js';
import type { Db } from '../../store/schema.js';
import { pathKey } from '../../imports/import-document.js';
import { TOP_LEVEL_GROUP_NAME } from '../../names/technical-names.js';

export interface StoredGroup {
  readonly id: string;
  readonly path: readonly string[];
}

export interface StoredEntry extends ImportRow {
  readonly id: string;
  readonly path: readonly string[];
}

export interface ImportState {
  /** path key → group; the top-level keys' group is not here (it is no level of the tree) */
  readonly groups: Map<string, StoredGroup>;
  readonly entries: Map<string, StoredEntry>;
  /** the id of the group holding the top-level keys, if the project has one */
  readonly topLevelGroupId: string | undefined;
}

const BATCH = 2000;

export async function loadImportState(db: Db, projectId: string): Promise<ImportState> {
  const rows = await listProjectGroups(db, projectId);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const topLevel = rows.find((row) => row.parent_id === null && row.technical_name === TOP_LEVEL_GROUP_NAME);
  const pathOf = groupPaths((id) => byId.get(id), new Map(), topLevel?.id);
  const groups = new Map<string, StoredGroup>();
  for (const row of rows) {
    if (row.id === topLevel?.id) continue;
    const path = pathOf(row.id);
    groups.set(pathKey(path), { id: row.id, path });
  }
  const entries = new Map<string, StoredEntry>();
  let after: ImportCursor | null = null;
  for (;;) {
    const batch = await importBatch(db, projectId, after, BATCH);
    for (const row of batch) {
      const path = [...pathOf(row.groupId), row.technicalName];
      entries.set(pathKey(path), { ...row, path });
    }
    const last = batch.at(-1);
    if (!last || batch.length < BATCH) break;
    after = { groupId: last.groupId, technicalName: last.technicalName };
    await yieldToEventLoop();
  }
  return { groups, entries, topLevelGroupId: topLevel?.id };
}
