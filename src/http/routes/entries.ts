/** /groups/{id}/entries, /entries/{id}, /projects/{id}/entries/untranslated and …/unreviewed. */
import { getEntry, listEntries, listUntranslated } from '../../domain/entries/read-entries.js';
import { createEntry, deleteEntry, updateEntry } from '../../domain/entries/write-entries.js';
import { listUnreviewed } from '../../domain/review/list-unreviewed.js';
import { principalOf } from '../plugins/auth.js';
import { errors, IdParams, NoContent, Page } from '../schemas/common.js';
import {
  CreateEntryBody,
  Entry,
  EntryListItem,
  EntryListQuery,
  EntrySummary,
  UnreviewedEntry,
  UntranslatedEntry,
  UntranslatedQuery,
  UpdateEntryBody,
} from '../schemas/entries.js';
import { bearer, type RoutePlugin } from './route-options.js';
import { sendSerializedOnce } from './serialized-once.js';

const tags = ['entries'];

export const entryRoutes: RoutePlugin = async (app, { db, caches }) => {
  app.get(
    '/groups/:id/entries',
    { schema: { tags, security: bearer, params: IdParams, querystring: EntryListQuery, response: { 200: Page(EntryListItem), ...errors(400, 403, 404) } } },
    async (request, reply) => {
      const { search, withTranslations, ...page } = request.query;
      return sendSerializedOnce(reply, await listEntries(db, caches, principalOf(request), request.params.id, { search, withTranslations: withTranslations === true }, page));
    },
  );

  app.post(
    '/groups/:id/entries',
    { schema: { tags, security: bearer, params: IdParams, body: CreateEntryBody, response: { 200: EntrySummary, ...errors(400, 403, 404, 409) } } },
    (request) => createEntry(db, principalOf(request), request.params.id, request.body),
  );

  app.get(
    '/entries/:id',
    { schema: { tags, security: bearer, params: IdParams, response: { 200: Entry, ...errors(403, 404) } } },
    async (request, reply) => sendSerializedOnce(reply, await getEntry(db, caches, principalOf(request), request.params.id)),
  );

  app.patch(
    '/entries/:id',
    { schema: { tags, security: bearer, params: IdParams, body: UpdateEntryBody, response: { 200: EntrySummary, ...errors(400, 403, 404, 409) } } },
    (request) => updateEntry(db, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/entries/:id',
    { schema: { tags, security: bearer, params: IdParams, response: { 204: NoContent, ...errors(403, 404) } } },
    async (request, reply) => {
      await deleteEntry(db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/projects/:id/entries/untranslated',
    { schema: { tags, security: bearer, params: IdParams, querystring: UntranslatedQuery, response: { 200: Page(UntranslatedEntry), ...errors(400, 403, 404) } } },
    async (request, reply) => {
      const { languageCode, ...page } = request.query;
      return sendSerializedOnce(reply, await listUntranslated(db, caches, principalOf(request), request.params.id, languageCode, page));
    },
  );

  app.get(
    '/projects/:id/entries/unreviewed',
    {
      schema: {
        tags,
        summary: "Entries whose translation in languageCode needs a review (not reviewed, or outdated), each with that translation; the untranslated list's order",
        security: bearer,
        params: IdParams,
        querystring: UntranslatedQuery,
        response: { 200: Page(UnreviewedEntry), ...errors(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const { languageCode, ...page } = request.query;
      return sendSerializedOnce(reply, await listUnreviewed(db, caches, principalOf(request), request.params.id, languageCode, page));
    },
  );
};
