/**
 * POST /projects/{id}/import (CONTRACT, "Import"). Its own scope: bodies up to IMPORT_MAX_BYTES
 * (413 beyond), JSON parsed without the prototype scan (a `__proto__` key is only a name the naming
 * rules refuse, never a prototype), archives taken as bytes. One counted request.
 */
import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { importProject } from '../../domain/imports/import-project.js';
import { AppError } from '../../errors.js';
import { principalOf } from '../plugins/auth.js';
import { nameBodyLimit } from '../plugins/public-bodies.js';
import { errorResponse, errors, IdParams } from '../schemas/common.js';
import { ImportBody, ImportQuery, ImportReport } from '../schemas/imports.js';
import { bearer, type RoutePlugin } from './route-options.js';

type ImportFormat = Static<typeof ImportQuery>['format'];

const JSON_TYPES = ['application/json'];
const GZIP_TYPES = ['application/gzip', 'application/x-gzip'];
/** The media types each format's body is taken in. */
const MEDIA_TYPES: Record<ImportFormat, string[]> = { json: JSON_TYPES, 'vue-i18n': JSON_TYPES, i18next: GZIP_TYPES, flutter: GZIP_TYPES };

const isFormat = (value: unknown): value is ImportFormat => typeof value === 'string' && Object.hasOwn(MEDIA_TYPES, value);

/** The body a format takes, as a 415 names it. */
const bodyOf = (format: ImportFormat) => (MEDIA_TYPES[format].includes('application/gzip') ? 'the .tar.gz archive as application/gzip' : 'the JSON document as application/json');

/** The import's own 413 and 415 (the usual ones speak of the other routes' 1 MiB JSON bodies). */
const tooLarge = (maxBytes: number) => `the body is over IMPORT_MAX_BYTES (default 64 MiB; ${maxBytes.toLocaleString('en')} bytes on this server)`;
const WRONG_MEDIA_TYPE = `the Content-Type is not the format's: json and vue-i18n take ${bodyOf('json')}, i18next and flutter ${bodyOf('flutter')} (ERR_UNSUPPORTED_MEDIA_TYPE)`;

/**
 * 415 for a body of the wrong media type, decided from the query's format and the Content-Type before
 * the body is read: a gzip archive sent as JSON would otherwise reach the JSON parser first (400 "not
 * JSON"). A missing or unknown format is left to the query's schema (400).
 */
function refuseWrongMediaType(request: FastifyRequest): void {
  const { format } = request.query as { format?: unknown };
  if (!isFormat(format)) return;
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!MEDIA_TYPES[format].includes(mediaType)) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', `format=${format} takes ${bodyOf(format)}`);
}

export function importRoutes(maxBytes: number): RoutePlugin {
  return async (app, { db }) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: maxBytes }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch (error) {
        done(new AppError('ERR_VALIDATION', `the body is not JSON: ${(error as Error).message}`, [{ path: '/body', message: 'is not JSON' }]), undefined);
      }
    });
    app.addContentTypeParser(GZIP_TYPES, { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) => done(null, body));
    nameBodyLimit(app, tooLarge(maxBytes));

    app.post(
      '/projects/:id/import',
      {
        bodyLimit: maxBytes,
        preParsing: async (request, _reply, payload) => {
          refuseWrongMediaType(request);
          return payload;
        },
        schema: {
          tags: ['import'],
          security: bearer,
          description:
            'Imports what an export of the format gives (any subset of the languages), converted into ICU messages, in one transaction: ' +
            'all or nothing (400 lists every refused item), or the rest with skipInvalid=true; dryRun=true writes nothing. ' +
            'What it writes is `translated`; markReviewed=true (canReview) writes it `reviewed` and reviews the unchanged texts too.',
          params: IdParams,
          querystring: ImportQuery,
          body: ImportBody,
          response: { 200: ImportReport, ...errors(400, 403, 404), 413: errorResponse(413, `${tooLarge(maxBytes)} (ERR_PAYLOAD_TOO_LARGE)`), 415: errorResponse(415, WRONG_MEDIA_TYPE) },
        },
      },
      async (request) => {
        const { format, mode, dryRun, skipInvalid, markReviewed, namespaces, escaping } = request.query;
        const input = { format, mode, dryRun, skipInvalid, markReviewed, namespaces, escaping, body: request.body as unknown };
        // The import drops the body once it has read it (input.body); the request must not keep it either.
        request.body = undefined;
        return importProject(db, principalOf(request), request.params.id, input);
      },
    );
  };
}
