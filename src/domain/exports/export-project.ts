/** Exporting a project: access, the version ETag, and a consistent streamed snapshot. */
import { Transform, type Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { projectNotFound } from '../../errors.js';
import { shippedTextsOf, type ExportFormat, type ExportOptions, type ExportWriter, type FormatId } from '../../exports/format.js';
import { openExportSource } from '../../exports/export-source.js';
import { SpoolSet } from '../../exports/spool.js';
import type { ProjectRecord } from '../../store/repositories/projects.js';
import { inReadSnapshot } from '../../store/read-snapshot.js';
import type { Database, Db } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import type { ContentCaches } from '../shared/content-caches.js';

/** A strong ETag: the project's content version (bumped by every write) and the representation asked for. */
export function exportEtag(contentVersion: number, format: FormatId, options: ExportOptions): string {
  return `"v${contentVersion}-${format}${representation(options)}"`;
}

/**
 * The options that change an export's bytes, as a suffix of its ETag and cache key. The latest texts
 * add nothing (an export without `release` keeps the ETag it always had); each other selection its name.
 */
function representation(options: ExportOptions): string {
  const { pretty, syntax, escaping, namespaces } = options;
  const shipped = shippedTextsOf(options);
  return `${pretty ? '-pretty' : ''}${syntax === 'icu' ? '-icu' : ''}${escaping ? '-escaping' : ''}${namespaces ? '-namespaces' : ''}${shipped === 'latest' ? '' : `-${shipped}`}`;
}

export interface ExportVersion {
  etag: string;
  /** the export of this version, when one was written in full lately (ContentCaches.exports) */
  kept: KeptExport | undefined;
}

/**
 * Checks that the caller may read the project and returns the export's current ETag (cheap: for
 * 304s), with the export itself when this version's was written lately.
 */
export async function currentExport(db: Db, caches: ContentCaches, principal: Principal, projectId: string, format: FormatId, options: ExportOptions): Promise<ExportVersion> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadEntries');
  const version = access.project.contentVersion;
  return { etag: exportEtag(version, format, options), kept: caches.exports.get(keyOf(projectId, format, options), projectId, version) };
}

export interface StartedExport {
  etag: string;
  body: Readable;
  /** a download name for archives, from the project name */
  fileName: string;
}

export interface KeptExport {
  etag: string;
  bytes: Buffer;
  fileName: string;
}

const keyOf = (projectId: string, format: FormatId, options: ExportOptions) => `export:${projectId}:${format}${representation(options)}`;

/** Passes an export's bytes through and keeps them once the export has ended whole (not when it failed or was abandoned). */
function keepingBody(keep: (bytes: Buffer) => void): Transform {
  let chunks: Buffer[] | null = [];
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (chunks) {
        size += chunk.length;
        if (size > MAX_KEPT_EXPORT) chunks = null;
        else chunks.push(chunk);
      }
      done(null, chunk);
    },
    flush(done) {
      if (chunks) keep(Buffer.concat(chunks, size));
      done();
    },
  });
}

const MAX_KEPT_EXPORT = 8 * 1024 * 1024;

/** `Shop App!` → `shop-app`: safe in a Content-Disposition header and on every file system. */
function fileNameOf(projectName: string, format: ExportFormat): string {
  const slug = projectName.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `${slug || 'project'}-${format.id}${format.isArchive ? '.tar.gz' : '.json'}`;
}

/**
 * Reads the project in one read transaction (repeatable read on PostgreSQL; a WAL snapshot on
 * SQLite's reader connection), so that the bytes match the ETag's version: the format walks it a
 * batch of entries at a time into spools (memory, then temporary files), and the transaction ends
 * before the first byte is written, so a slow client holds no database connection and no text is
 * held in memory. Resolves once the format's checks have passed, with the body still being written;
 * a failure after that point can only abort the stream.
 */
export async function startExport(reader: Kysely<Database>, caches: ContentCaches, projectId: string, format: ExportFormat, options: ExportOptions): Promise<StartedExport> {
  const spools = new SpoolSet();
  let prepared: { write: ExportWriter; project: ProjectRecord };
  try {
    prepared = await inReadSnapshot(reader, async (trx) => {
      const source = await openExportSource(trx, projectId, caches.exportRows, shippedTextsOf(options));
      if (!source) throw projectNotFound();
      return { write: await format.prepare(source, options, spools), project: source.project };
    });
  } catch (error) {
    await spools.dispose();
    throw error;
  }
  const { write, project } = prepared;
  const etag = exportEtag(project.contentVersion, format.id, options);
  const fileName = fileNameOf(project.name, format);
  const body = keepingBody((bytes) => caches.exports.set(keyOf(projectId, format.id, options), projectId, project.contentVersion, { etag, fileName, bytes }, bytes.length));
  write(body)
    .then(
      () => {
        if (!body.writableEnded) body.end();
      },
      (error: unknown) => body.destroy(error instanceof Error ? error : new Error(String(error))),
    )
    .finally(() => spools.dispose())
    .catch(() => {});
  return { etag, body, fileName };
}
