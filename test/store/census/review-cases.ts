/** The census's cases of review (CONTRACT "Review"): review, unreview, confirm, bulk review, and a minor base term edit. */
import { PATCH_ENTRY, STALE, written, type CensusCase, type CensusContext } from './world.js';

export const REVIEW = 'POST /entries/{id}/translations/review';
export const UNREVIEW = 'DELETE /entries/{id}/translations/review';
export const CONFIRM = 'POST /entries/{id}/translations/confirm';
export const BULK_REVIEW = 'POST /projects/{id}/reviews';

const reviewPath = (context: CensusContext) => `/entries/${context.world.greeting.id}/translations/review`;
const confirmPath = (context: CensusContext) => `/entries/${context.world.greeting.id}/translations/confirm`;
/** The owner reviews greeting's de. */
const reviewed = (context: CensusContext) => written(context, 'POST', reviewPath(context), { language: 'de' });
/** greeting's base term changes: its de is outdated. */
const baseEdited = (context: CensusContext) => written(context, 'PATCH', `/entries/${context.world.greeting.id}`, { baseTerm: 'Hello there' });

export const reviewCases: CensusCase[] = [
  {
    operation: REVIEW, name: 'a translated text, by an editor', status: 200, changes: 1,
    prepare: async (context) => ({ caller: 'editor', request: { method: 'POST', path: reviewPath(context), body: { language: 'de' } } }),
  },
  {
    operation: REVIEW, name: 'with the current If-Match', status: 200, changes: 1,
    prepare: async (context) => {
      const entry = await context.server.api('GET', `/entries/${context.world.greeting.id}`, { key: context.ownerKey });
      const etag = `"${entry.body.translations.find((t: { language: string }) => t.language === 'de').updatedAt}"`;
      return { request: { method: 'POST', path: reviewPath(context), body: { language: 'de' }, headers: { 'if-match': etag } } };
    },
  },
  {
    operation: REVIEW, name: 'reviewed, then its base term changed: reviewed again', status: 200, changes: 1,
    prepare: async (context) => {
      await reviewed(context);
      await baseEdited(context);
      return { caller: 'editor', request: { method: 'POST', path: reviewPath(context), body: { language: 'de' } } };
    },
  },
  {
    operation: REVIEW, name: 'a reviewed, current text again', status: 200, changes: 0,
    prepare: async (context) => {
      await reviewed(context);
      return { caller: 'editor', request: { method: 'POST', path: reviewPath(context), body: { language: 'de' } } };
    },
  },
  {
    operation: REVIEW, name: 'by a translator', status: 403, changes: 0,
    prepare: async (context) => ({ caller: 'translator', request: { method: 'POST', path: reviewPath(context), body: { language: 'de' } } }),
  },
  {
    operation: REVIEW, name: 'a stale If-Match', status: 412, changes: 0,
    prepare: async (context) => ({ request: { method: 'POST', path: reviewPath(context), body: { language: 'de' }, headers: { 'if-match': STALE } } }),
  },
  {
    operation: REVIEW, name: 'no translation in that language', status: 404, changes: 0,
    prepare: async (context) => ({ request: { method: 'POST', path: reviewPath(context), body: { language: 'pt-BR' } } }),
  },
  {
    operation: REVIEW, name: 'the base language', status: 400, changes: 0,
    prepare: async (context) => ({ request: { method: 'POST', path: reviewPath(context), body: { language: 'en' } } }),
  },
  {
    operation: UNREVIEW, name: 'a reviewed text', status: 200, changes: 1,
    prepare: async (context) => {
      await reviewed(context);
      return { caller: 'editor', request: { method: 'DELETE', path: reviewPath(context), body: { language: 'de' } } };
    },
  },
  {
    operation: UNREVIEW, name: 'the review a later save kept (it still ships until withdrawn)', status: 200, changes: 1,
    prepare: async (context) => {
      await reviewed(context);
      await written(context, 'PUT', `/entries/${context.world.greeting.id}/translations`, { language: 'de', translation: 'Hallo!' });
      return { request: { method: 'DELETE', path: reviewPath(context), body: { language: 'de' } } };
    },
  },
  {
    operation: UNREVIEW, name: 'a text never reviewed', status: 200, changes: 0,
    prepare: async (context) => ({ request: { method: 'DELETE', path: reviewPath(context), body: { language: 'de' } } }),
  },
  {
    operation: UNREVIEW, name: 'by a viewer', status: 403, changes: 0,
    prepare: async (context) => {
      await reviewed(context);
      return { caller: 'viewer', request: { method: 'DELETE', path: reviewPath(context), body: { language: 'de' } } };
    },
  },
  {
    operation: CONFIRM, name: 'an outdated text, by a translator', status: 200, changes: 1,
    prepare: async (context) => {
      await baseEdited(context);
      return { caller: 'translator', request: { method: 'POST', path: confirmPath(context), body: { language: 'de' } } };
    },
  },
  {
    operation: CONFIRM, name: 'a current text', status: 200, changes: 0,
    prepare: async (context) => ({ caller: 'translator', request: { method: 'POST', path: confirmPath(context), body: { language: 'de' } } }),
  },
  {
    operation: CONFIRM, name: 'by a viewer', status: 403, changes: 0,
    prepare: async (context) => {
      await baseEdited(context);
      return { caller: 'viewer', request: { method: 'POST', path: confirmPath(context), body: { language: 'de' } } };
    },
  },
  {
    operation: BULK_REVIEW, name: 'a translated entry and one without a translation (refused)', status: 200, changes: 1,
    prepare: async ({ world }) => ({
      caller: 'editor',
      request: { method: 'POST', path: `/projects/${world.project.id}/reviews`, body: { language: 'de', entryIds: [world.greeting.id, world.title.id, world.greeting.id] } },
    }),
  },
  {
    operation: BULK_REVIEW, name: 'only reviewed, current texts', status: 200, changes: 0,
    prepare: async (context) => {
      await reviewed(context);
      return { request: { method: 'POST', path: `/projects/${context.world.project.id}/reviews`, body: { language: 'de', entryIds: [context.world.greeting.id] } } };
    },
  },
  {
    operation: BULK_REVIEW, name: 'by a translator', status: 403, changes: 0,
    prepare: async ({ world }) => ({ caller: 'translator', request: { method: 'POST', path: `/projects/${world.project.id}/reviews`, body: { language: 'de', entryIds: [world.greeting.id] } } }),
  },
  {
    operation: BULK_REVIEW, name: 'no ids', status: 400, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'POST', path: `/projects/${world.project.id}/reviews`, body: { language: 'de', entryIds: [] } } }),
  },
  {
    operation: PATCH_ENTRY, name: 'a base term typo fix (minorEdit): the entry changes, its translations stay current', status: 200, changes: 1,
    prepare: async ({ world }) => ({ request: { method: 'PATCH', path: `/entries/${world.greeting.id}`, body: { baseTerm: 'Hello!', minorEdit: true } } }),
  },
];
