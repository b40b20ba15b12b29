/** The four export routes, with conditional GET (ETag / If-None-Match → 304). */
import { Type, type TObject } from 'typebox';
import { currentExport, startExport } from '../../domain/exports/export-project.js';
import { OUTDATED_REVIEWS, RELEASES, type ExportOptions, type FormatId, type OutdatedReviews, type Release } from '../../exports/format.js';
import { EXPORT_FORMATS } from '../../exports/formats.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { validationError } from '../../errors.js';
import { principalOf } from '../plugins/auth.js';
import { chargeQuota } from '../plugins/quota.js';
import { errors, IdParams } from '../schemas/common.js';
import { bearer, type RoutePlugin } from './route-options.js';

/** What every format takes: pretty-printing, and which texts ship (CONTRACT "Review"). */
const common = {
  format: Type.Boolean({ default: false, description: 'pretty-print JSON (also inside archives)' }),
  release: Type.Union(
    RELEASES.map((release) => Type.Literal(release)),
    {
      default: 'latest',
      description:
        '`latest`: every translation\'s current text; `reviewed`: the text its last review approved (kept through later edits until it is reviewed again or unreviewed), a translation never reviewed, or unreviewed, falling back to the base term as a missing one does. Each has its own ETag.',
    },
  ),
  outdated: Type.Optional(
    Type.Union(
      OUTDATED_REVIEWS.map((outdated) => Type.Literal(outdated)),
      {
        description:
          'only with `release=reviewed` (else 400): `ship` (the default) ships a reviewed text even when the base term changed after its review; `fallback` ships the base term instead where the review was made against an earlier base term (a `minorEdit` of the base term does not count, nor does a confirm)',
      },
    ),
  ),
};

/** Each format's query: the common options, and the syntax options only the format they concern takes. */
const EXPORT_QUERIES: Readonly<Record<FormatId, TObject>> = {
  json: Type.Object(common),
  'vue-i18n': Type.Object(common),
  i18next: Type.Object({
    ...common,
    syntax: Type.Union([Type.Literal('native'), Type.Literal('icu')], {
      default: 'native',
      description: "`native`: i18next's own syntax ({{x}}, plural suffix keys); `icu`: the stored ICU messages unchanged, for i18next-icu",
    }),
    namespaces: Type.Boolean({
      default: false,
      description: 'true: each top-level group as a namespace file <lang>/<group>.json holding its content (a group named components/dialog in the sub-folder: <lang>/components/dialog.json; top-level keys refused, 409); false: <lang>/translation.json',
    }),
  }),
  flutter: Type.Object({
    ...common,
    escaping: Type.Boolean({ default: false, description: "gen-l10n's `use-escaping: true` syntax, which can say literal braces ('{'); set the same in l10n.yaml" }),
  }),
};

type ExportQuery = { format: boolean; release: Release; outdated?: OutdatedReviews; syntax?: 'native' | 'icu'; escaping?: boolean; namespaces?: boolean };

/** The export's options from its query; `outdated` says what reviewed texts do, so without `release=reviewed` it is a mistake, not a no-op. */
function optionsOf(query: ExportQuery): ExportOptions {
  if (query.outdated !== undefined && query.release !== 'reviewed') throw validationError('outdated is only for release=reviewed', '/querystring/outdated');
  return {
    pretty: query.format,
    syntax: query.syntax ?? 'native',
    escaping: query.escaping ?? false,
    namespaces: query.namespaces ?? false,
    release: query.release,
    outdated: query.outdated ?? 'ship',
  };
}

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

/** Registers GET /projects/{id}/export/<format> for each format; exports read through `reader`, count in `usage`. */
export function exportRoutes(reader: Kysely<Database>, usage: Kysely<Database>): RoutePlugin {
  return async (app, { db, caches }) => {
    for (const format of EXPORT_FORMATS) {
      app.get(
        `/projects/:id/export/${format.id}`,
        {
          config: { chargesConditionalItself: true, exportFormat: format.id },
          schema: {
            tags: ['exports'],
            security: bearer,
            params: IdParams,
            querystring: EXPORT_QUERIES[format.id],
            response: { 200: exportBody(format.contentType), 304: NotModified, ...errors(400, 403, 404, ...(format.id === 'flutter' ? [409] : [])) },
          },
        },
        async (request, reply) => {
          const options = optionsOf(request.query as ExportQuery);
          const current = await currentExport(db, caches, principalOf(request), request.params.id, format.id, options);
          reply.header('cache-control', 'private, no-cache');
          if (notModified(request.headers['if-none-match'], current.etag)) return reply.code(304).header('etag', current.etag).send();
          await chargeQuota(usage, request, reply);
          const kept = current.kept;
          if (kept) {
            reply.header('etag', kept.etag).type(format.contentType);
            if (format.isArchive) reply.header('content-disposition', `attachment; filename="${kept.fileName}"`);
            return reply.send(kept.bytes);
          }
          const started = await startExport(reader, caches, request.params.id, format, options);
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
