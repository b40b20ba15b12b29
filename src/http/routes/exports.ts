/** The four export routes, with conditional GET (ETag / If-None-Match → 304). */
import { Type } from 'typebox';
import { currentExport, startExport } from '../../domain/exports/export-project.js';
import { EXPORT_FORMATS } from '../../exports/formats.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { principalOf } from '../plugins/auth.js';
import { chargeQuota } from '../plugins/quota.js';
import { errors, IdParams } from '../schemas/common.js';
import { bearer, type RoutePlugin } from './route-options.js';

const ExportQuery = Type.Object({
  format: Type.Boolean({ default: false, description: 'pretty-print JSON (also inside archives)' }),
});

/** If-None-Match matches when it lists the ETag (weak comparison, as RFC 9110 says for this header) or is *. */
function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

/**
 * The 200 body in the format's media type: JSON, or a .tar.gz archive. It is a stream or bytes, sent
 * as is (no serializer applies), so the schema only documents it.
 */
function exportBody(contentType: string) {
  const mediaType = contentType.replace(/;.*/, '');
  const schema = mediaType === 'application/json' ? Type.Object({}, { additionalProperties: true }) : Type.Unsafe<unknown>({ contentMediaType: mediaType });
  return { description: 'the export, with its ETag', content: { [mediaType]: { schema } } };
}
const NotModified = Type.Null({ description: 'not modified: If-None-Match lists the current ETag (not counted against the quota)' });

/** Registers GET /projects/{id}/export/<format> for each format; exports read through `reader`. */
export function exportRoutes(reader: Kysely<Database>): RoutePlugin {
  return async (app, { db }) => {
    for (const format of EXPORT_FORMATS) {
      app.get(
        `/projects/:id/export/${format.id}`,
        {
          config: { chargesConditionalItself: true, exportFormat: format.id },
          schema: {
            tags: ['exports'],
            security: bearer,
            params: IdParams,
            querystring: ExportQuery,
            response: { 200: exportBody(format.contentType), 304: NotModified, ...errors(400, 403, 404, ...(format.id === 'flutter' ? [409] : [])) },
          },
        },
        async (request, reply) => {
          const pretty = request.query.format;
          const current = await currentExport(db, principalOf(request), request.params.id, format.id, pretty);
          reply.header('cache-control', 'private, no-cache');
          if (notModified(request.headers['if-none-match'], current.etag)) return reply.code(304).header('etag', current.etag).send();
          await chargeQuota(db, request, reply);
          const kept = current.kept;
          if (kept) {
            reply.header('etag', kept.etag).type(format.contentType);
            if (format.isArchive) reply.header('content-disposition', `attachment; filename="${kept.fileName}"`);
            return reply.send(kept.bytes);
          }
          const started = await startExport(reader, request.params.id, format, pretty);
          // An export holds a read transaction until its body is written: when the client goes away
          // (even before the body is piped), end the body so the transaction ends with it.
          const abandon = () => {
            if (reply.raw.writableFinished) return;
            started.body.destroy();
          };
          if (reply.raw.destroyed || request.raw.destroyed) abandon();
          else reply.raw.once('close', abandon);
          reply.header('etag', started.etag).type(format.contentType);
          if (format.isArchive) reply.header('content-disposition', `attachment; filename="${started.fileName}"`);
          return reply.send(started.body);
        },
      );
    }
  };
}
