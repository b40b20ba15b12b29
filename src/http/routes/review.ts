/** Review, unreview and confirm a translation; review many at once (CONTRACT "Review"). */
import { actOnTranslation, reviewMany, type ReviewAction } from '../../domain/review/review-translations.js';
import { principalOf } from '../plugins/auth.js';
import { errors, IdParams } from '../schemas/common.js';
import { IfMatchOnlyHeaders, Translation, TranslationLanguageBody } from '../schemas/entries.js';
import { BulkReviewAnswer, BulkReviewBody } from '../schemas/review.js';
import { bearer, type RoutePlugin } from './route-options.js';

const tags = ['review'];

const SINGLE: { method: 'POST' | 'DELETE'; path: string; action: ReviewAction; summary: string }[] = [
  {
    method: 'POST',
    path: '/entries/:id/translations/review',
    action: 'review',
    summary: "Reviews the translation's current text (canReview); with If-Match, a text changed since it was read → 412",
  },
  {
    method: 'DELETE',
    path: '/entries/:id/translations/review',
    action: 'unreview',
    summary: 'Withdraws the review the translation keeps (canReview): it is `translated` again, and nothing of the review ships',
  },
  {
    method: 'POST',
    path: '/entries/:id/translations/confirm',
    action: 'confirm',
    summary: 'Confirms an outdated translation against the current base term without a new text (canTranslate); the state stays',
  },
];

export const reviewRoutes: RoutePlugin = async (app, { db }) => {
  for (const { method, path, action, summary } of SINGLE) {
    app.route({
      method,
      url: path,
      schema: {
        tags,
        summary,
        security: bearer,
        params: IdParams,
        headers: IfMatchOnlyHeaders,
        body: TranslationLanguageBody,
        response: { 200: Translation, ...errors(400, 403, 404, 412) },
      },
      handler: async (request, reply) => {
        const { translation, etag } = await actOnTranslation(db, principalOf(request), request.params.id, action, request.body.language, request.headers['if-match']);
        reply.header('etag', etag);
        return translation;
      },
    });
  }

  app.post(
    '/projects/:id/reviews',
    {
      schema: {
        tags,
        summary: "Reviews the translations in one language of up to 1,000 entries as one change set (canReview)",
        security: bearer,
        params: IdParams,
        body: BulkReviewBody,
        response: { 200: BulkReviewAnswer, ...errors(400, 403, 404) },
      },
    },
    async (request) => reviewMany(db, principalOf(request), request.params.id, request.body.language, request.body.entryIds),
  );
};
