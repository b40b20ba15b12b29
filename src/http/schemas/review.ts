/** The review routes' schemas (CONTRACT "Review"). */
import { Type } from 'typebox';
import { LocaleTag } from './common.js';

export const BulkReviewBody = Type.Object(
  {
    language: LocaleTag,
    entryIds: Type.Array(Type.String({ maxLength: 100 }), {
      minItems: 1,
      maxItems: 1000,
      description: 'the entries whose translation in `language` to review: 1 to 1,000 ids; a repeated id counts once',
    }),
  },
  { additionalProperties: false },
);

export const BulkReviewAnswer = Type.Object(
  {
    reviewed: Type.Integer({ description: 'translations reviewed now (a reviewed but outdated one is reviewed again)' }),
    unchanged: Type.Integer({ description: 'translations already reviewed against the current base term' }),
    refused: Type.Array(Type.Object({ entryId: Type.String(), message: Type.String() }), {
      description: 'ids that are no entry of the project, or entries without a translation in `language`',
    }),
  },
  {
    examples: [{ reviewed: 2, unchanged: 1, refused: [{ entryId: 'c0o5uatc00007hczz2n6xdy3', message: 'the entry has no translation in "de"' }] }],
  },
);
