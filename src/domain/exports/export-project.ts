/** Exporting a project: access, the version ETag, and a consistent streamed snapshot. */
import { PassThrough, type Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { projectNotFound } from '../../errors.js';
import type { ExportFormat, FormatId } from '../../exports/format.js';
import { loadSnapshot } from '../../exports/snapshot.js';
import { isPostgres } from '../../store/dialect.js';
import type { Database, Db } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';

/** A strong ETag: the project's content version (bumped by every write) and the representation asked for. */
export function exportEtag(contentVersion: number, format: FormatId, pretty: boolean): string {
  return `"v${contentVersion}-${format}${pretty ? '-pretty' : ''}"`;
}

/** Checks that the caller may read the project and returns the export's current ETag (cheap: for 304s). */
export async function exportEtagFor(db: Db, principal: Principal, projectId: string, format: FormatId, pretty: boolean): Promise<string> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadEntries');
  return exportEtag(access.project.contentVersion, format, pretty);
}

export interface StartedExport {
  etag: string;
  body: Readable;
  /** a download name for archives, from the project name */
  fileName: string;
}

/** `Shop App!` → `shop-app`: safe in a Content-Disposition header and on every file system. */
function fileNameOf(projectName: string, format: ExportFormat): string {
  const slug = projectName.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `${slug || 'project'}-${format.id}${format.isArchive ? '.tar.gz' : '.json'}`;
}

/**
 * Starts an export inside one read transaction (repeatable read on PostgreSQL; a WAL snapshot on
 * SQLite's reader connection), so that the bytes match the ETag's version. Resolves once the
 * format's checks have passed, with the body still being written; a failure after that point
 * can only abort the stream.
 */
export function startExport(reader: Kysely<Database>, projectId: string, format: ExportFormat, pretty: boolean): Promise<StartedExport> {
  return new Promise((resolve, reject) => {
    const body = new PassThrough();
    let started = false;
    const transaction = reader.transaction();
    (isPostgres(reader) ? transaction.setIsolationLevel('repeatable read') : transaction)
      .execute(async (trx) => {
        const snapshot = await loadSnapshot(trx, projectId);
        if (!snapshot) throw projectNotFound();
        const write = await format.prepare(snapshot);
        started = true;
        resolve({ etag: exportEtag(snapshot.project.contentVersion, format.id, pretty), body, fileName: fileNameOf(snapshot.project.name, format) });
        await write(body, pretty);
        if (!body.writableEnded) body.end();
      })
      .catch((error: unknown) => {
        if (started) body.destroy(error instanceof Error ? error : new Error(String(error)));
        else reject(error);
      });
  });
}
