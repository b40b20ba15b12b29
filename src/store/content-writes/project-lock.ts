/** The start of every content write: the project's version bumped under its row lock. */
import { prepared } from '../prepared.js';
import type { Db } from '../schema.js';

/**
 * Starts a write to a project's content: bumps its content version (the export ETag) and, on
 * PostgreSQL, takes the project's row lock until commit, so that every write transaction of one
 * project runs one after another. Name, depth and cycle checks made after this call cannot race.
 * The write records what it changed in the change log at this version (store/content-writes), which
 * the kept exports and entry pages read to catch up (exports.ts entryChangesSince).
 * Returns the new content version (the write's change set's), or undefined when the project no longer exists.
 */
export async function beginProjectWrite(db: Db, projectId: string, now: string): Promise<number | undefined> {
  // (A write to one entry or group on PostgreSQL finds its project in the same statement: postgres-writes.ts.)
  const [bumped] = (await beginWriteQuery(db, now, projectId)).rows;
  return bumped && Number(bumped.content_version);
}

const beginWriteQuery = prepared(2, (db, now: string, projectId: string) =>
  db
    .updateTable('projects')
    .set((eb) => ({ content_version: eb('content_version', '+', 1), updated_at: now }))
    .where('id', '=', projectId)
    .returning('content_version'),
);
