/** PUT and DELETE /entries/{id}/translations. */
import { removeTranslation, setTranslation } from '../../domain/translations/write-translations.js';
import { principalOf } from '../plugins/auth.js';
import { errors, IdParams, NoContent } from '../schemas/common.js';
import { TranslationLanguageBody, IfMatchHeaders, IfMatchOnlyHeaders, SetTranslationBody, Translation } from '../schemas/entries.js';
import { bearer, type RoutePlugin } from './route-options.js';

const tags = ['translations'];

export const translationRoutes: RoutePlugin = async (app, { db }) => {
  app.put(
    '/entries/:id/translations',
    {
      schema: {
        tags,
        security: bearer,
        params: IdParams,
        headers: IfMatchHeaders,
        body: SetTranslationBody,
        response: { 200: Translation, ...errors(400, 403, 404, 412) },
      },
    },
    async (request, reply) => {
      const input = { ...request.body, ifMatch: request.headers['if-match'], ifNoneMatch: request.headers['if-none-match'] };
      const { translation, etag } = await setTranslation(db, principalOf(request), request.params.id, input);
      reply.header('etag', etag);
      return translation;
    },
  );

  app.delete(
    '/entries/:id/translations',
    {
      schema: {
        tags,
        security: bearer,
        params: IdParams,
        headers: IfMatchOnlyHeaders,
        body: TranslationLanguageBody,
        response: { 204: NoContent, ...errors(400, 403, 404, 412) },
      },
    },
    async (request, reply) => {
      await removeTranslation(db, principalOf(request), request.params.id, request.body.language, request.headers['if-match']);
      return reply.code(204).send(null);
    },
  );
};
