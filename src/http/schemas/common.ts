/** Schemas shared by every route: ids, pages, the error body, field rules of the contract. */
import { Type, type Static, type TSchema } from 'typebox';
import { ANY_STYLE_GROUP_NAME_PATTERN, ANY_STYLE_NAME_PATTERN, FREE_NAME_LENGTH } from '../../names/technical-names.js';

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC timestamp' });

export const IdParams = Type.Object({ id: Type.String({ description: 'resource id' }) });

/** A locale tag; whether it is one of GET /locales is checked by the domain (with a "did you mean"). */
export const LocaleTag = Type.String({ minLength: 1, maxLength: 35, description: 'locale tag of GET /locales, e.g. en or pt-BR' });

/**
 * Technical names: the schema lets through what either key style allows; the domain applies the
 * project's own style (camelCase: `^[a-z][a-zA-Z0-9]*$`, groups 1–100, entries 4–100 characters;
 * free: 1–100 ASCII letters, digits, `_`, `-`), since a schema cannot see the project.
 */
const TechnicalName = (kind: 'group' | 'entry') =>
  Type.String({
    minLength: FREE_NAME_LENGTH.min,
    maxLength: FREE_NAME_LENGTH.max,
    pattern: kind === 'group' ? ANY_STYLE_GROUP_NAME_PATTERN : ANY_STYLE_NAME_PATTERN,
    description:
      `the ${kind}'s name: with the project's keyStyle camelCase (default) ^[a-z][a-zA-Z0-9]*$ of ${kind === 'entry' ? '4' : '1'}–100 characters; with free 1–100 ASCII letters, digits, _ and -` +
      (kind === 'group' ? ' (a top-level group may also hold / between such names: an i18next namespace in sub-folders)' : ''),
  });
export const GroupTechnicalName = TechnicalName('group');
export const EntryTechnicalName = TechnicalName('entry');
/** A human-readable label: at least one visible character. */
export const DisplayName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
export const ProjectName = Type.String({ minLength: 3, maxLength: 32, pattern: '\\S', description: '3–32 characters' });
export const Text = Type.String({
  minLength: 1,
  maxLength: 10_000,
  description: "1–10,000 characters; an ICU message (`{name}`, `{n, plural, one {# item} other {# items}}`, `'{'` for a literal brace), else 400 naming the offset",
});
export const ContextInfo = Type.String({ maxLength: 2_000, description: 'at most 2,000 characters' });

export const PageQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 100, description: 'page size, 1–100' }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0, description: 'items to skip' }),
});

/** The spec's Page of `item`. */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    limit: Type.Integer(),
    offset: Type.Integer(),
    total: Type.Integer(),
    result: Type.Array(item),
  });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.String({ description: 'ERR_… code' }),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorBody', description: 'the body of every error response' },
);

/** What each error status tells the caller: the description of the response in the OpenAPI document. */
const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  400: 'the request is invalid (ERR_VALIDATION; groups nested too deep: ERR_HIERARCHY_LIMIT); `details` names the fields',
  401: 'the API key is missing, invalid, revoked or expired (ERR_UNAUTHORIZED)',
  403: "the key's user lacks the role this needs on the project (ERR_FORBIDDEN)",
  404: "no such resource, or one the key's user may not see (ERR_PROJECT_NOT_FOUND, ERR_NOT_FOUND, …)",
  409: 'it conflicts with existing content (ERR_CONFLICT; Flutter key collisions: ERR_EXPORT_KEY_COLLISION)',
  412: 'If-Match no longer matches the stored translation (ERR_PRECONDITION_FAILED)',
  413: 'the request body is over 1 MiB (ERR_PAYLOAD_TOO_LARGE)',
  415: 'the request body is not JSON (ERR_UNSUPPORTED_MEDIA_TYPE)',
  429: "the key's user has used up the daily quota (ERR_QUOTA_EXCEEDED); Retry-After says when it resets",
  500: 'an unexpected failure (ERR_INTERNAL); the server log has the details',
};

/** The error body as the response of `status`; `description` for a route whose answer means more than the usual. */
export const errorResponse = (status: number, description = ERROR_MEANINGS[status] ?? 'an error') =>
  Type.Unsafe<Static<typeof ErrorBody>>({ $ref: 'ErrorBody#', description });

const errorResponses = (statuses: number[]) => Object.fromEntries(statuses.map((status) => [status, errorResponse(status)]));

/** Error responses of an authenticated route, for the OpenAPI document and serialization. */
export const errors = (...statuses: number[]) => errorResponses([401, 429, 500, ...statuses]);

/** Error responses of a public route: no key, no quota, so only what can go wrong inside. */
export const publicErrors = (...statuses: number[]) => errorResponses([500, ...statuses]);

export const NoContent = Type.Null({ description: 'no content' });
