/** Entry and translation schemas. */
import { Type } from 'typebox';
import { ContextInfo, EntryTechnicalName, LocaleTag, Nullable, PageQuery, Text, Timestamp } from './common.js';

const summaryFields = {
  id: Type.String(),
  groupId: Type.String(),
  technicalName: Type.String(),
  baseTerm: Type.String(),
  contextInfo: Nullable(Type.String()),
};

export const EntrySummary = Type.Object({ ...summaryFields, createdAt: Timestamp });
export const UntranslatedEntry = Type.Object(summaryFields);

const Reviewer = Type.Object(
  { id: Type.String(), firstName: Type.String(), lastName: Type.String() },
  { description: 'who made the review the translation keeps (names empty if the account is gone)' },
);

export const Translation = Type.Object({
  id: Type.String(),
  language: Type.String(),
  translation: Type.String(),
  translatorId: Type.String(),
  createdAt: Timestamp,
  updatedAt: Type.String({ format: 'date-time', description: 'quoted, this is the ETag for If-Match; it changes only when the text changes' }),
  state: Type.Union([Type.Literal('translated'), Type.Literal('reviewed')], {
    description: '`reviewed`: the current text was approved by a review; `translated`: it was not (yet, or since it changed)',
  }),
  outdated: Type.Boolean({ description: "the entry's base term changed since this translation was written, confirmed or reviewed" }),
  reviewedBy: Nullable(Reviewer),
  reviewedAt: Nullable(Timestamp),
  reviewedText: Nullable(
    Type.String({ description: 'the text the last review approved, when the current text differs from it: it is what `release=reviewed` exports ship' }),
  ),
});

export const Entry = Type.Object({ ...summaryFields, createdAt: Timestamp, translations: Type.Array(Translation) });

/** An item of the review list: an Untranslated entry with its translation in `languageCode` (`translated`, or `reviewed` and `outdated`). */
export const UnreviewedEntry = Type.Object({
  ...summaryFields,
  translation: Translation,
});

/** An item of a group's entry page: an Entry summary, with its translations when asked for. */
export const EntryListItem = Type.Object({
  ...summaryFields,
  createdAt: Timestamp,
  translations: Type.Optional(Type.Array(Translation, { description: 'present with withTranslations=true' })),
});

export const EntryListQuery = Type.Object({
  ...PageQuery.properties,
  withTranslations: Type.Optional(
    Type.Boolean({ description: "true: each item also carries its translations in the project's translation languages (one request for an editor's page)" }),
  ),
  search: Type.Optional(Type.String({ maxLength: 10_000, description: 'case-insensitive substring of technical name or base term' })),
});

/** The untranslated and the unreviewed list's query: a page of one translation language. */
export const UntranslatedQuery = Type.Object({ ...PageQuery.properties, languageCode: LocaleTag });

export const CreateEntryBody = Type.Object(
  { technicalName: EntryTechnicalName, baseTerm: Text, contextInfo: Type.Optional(Nullable(ContextInfo)) },
  { additionalProperties: false },
);

export const UpdateEntryBody = Type.Object(
  {
    technicalName: Type.Optional(Nullable(EntryTechnicalName)),
    baseTerm: Type.Optional(Nullable(Text)),
    contextInfo: Type.Optional(Nullable(ContextInfo)),
    minorEdit: Type.Optional(
      Type.Boolean({ description: "true: a base term change that is a typo fix; the entry's translations are not marked outdated (CONTRACT \"Review\")" }),
    ),
  },
  { additionalProperties: false },
);

export const SetTranslationBody = Type.Object({ language: LocaleTag, translation: Text }, { additionalProperties: false });
/** The body naming one translation of an entry: a DELETE's, a review's, an unreview's, a confirm's. */
export const TranslationLanguageBody = Type.Object({ language: LocaleTag }, { additionalProperties: false });
const IfMatch = Type.Optional(Type.String({ description: 'ETag of the translation this change was made from' }));
export const IfMatchOnlyHeaders = Type.Object({ 'if-match': IfMatch });
export const IfMatchHeaders = Type.Object({
  'if-match': IfMatch,
  'if-none-match': Type.Optional(Type.String({ description: '*: save only if the entry has no translation in this language yet' })),
});
