/**
 * fast-check arbitraries of requests to every route of tolk: a third well-formed (so that state
 * grows and deep code runs), the rest hostile in one part (path, query, headers, body, method,
 * auth) or in all; now and then a path no route has.
 */
import fc from 'fast-check';
import {
  adversarialString,
  email,
  idIn,
  locale,
  objectBody,
  ownId,
  ownIdValue,
  projectLanguage,
  role,
  technicalName,
  text,
  validLocale,
  type BodyArbitraries,
  type IdRef,
  type PoolName,
} from './fuzz-values.js';

export type Caller = 'owner' | 'editor' | 'viewer' | 'revoked';
export type AuthForm = 'bearer' | 'lowercase' | 'spaces' | 'basic' | 'bare' | 'two-tokens' | 'empty-bearer' | 'junk-key' | 'long-key' | 'twice';

export type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string | null }
  | { kind: 'raw'; text: string; contentType: string | null }
  | { kind: 'deep'; shape: 'array' | 'object'; depth: number; contentType: string | null }
  | { kind: 'bytes'; bytes: number[]; contentType: string | null };

export interface FuzzRequest {
  route: string;
  /** which of the run's projects the request is about: its ids (path and body) come from that project */
  context: number;
  method: string;
  /** path segments; an IdRef stands for an id */
  path: Array<string | IdRef>;
  query: Array<[string, string | IdRef]>;
  /** true: the query is sent with only the characters HTTP forbids escaped */
  rawQuery: boolean;
  auth: { caller: Caller; form: AuthForm } | null;
  headers: Array<[string, string]>;
  body: Body;
}

// ---------------------------------------------------------------------------------------------
// Query strings

const pageValue = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 120 }).map(String), weight: 2 },
  {
    arbitrary: fc.constantFrom('-1', '0', '101', '1.5', '1e2', '1e309', '-0', '0x10', '', ' ', 'abc', '9'.repeat(400), '1000000000', '1000000001', '9007199254740993', 'true', 'null', '[]', '1,2'),
    weight: 3,
  },
  { arbitrary: adversarialString, weight: 1 },
);

/** A query field: its name, valid values and hostile values. */
type QueryField = [string, fc.Arbitrary<string | IdRef>, fc.Arbitrary<string | IdRef>];
const PAGE_QUERY: QueryField[] = [
  ['limit', fc.integer({ min: 1, max: 100 }).map(String), pageValue],
  ['offset', fc.integer({ min: 0, max: 30 }).map(String), pageValue],
];

/** The route's query fields (each present or not); hostile: odd values, duplicates and unknown keys. */
function queryOf(fields: QueryField[], hostile: boolean): fc.Arbitrary<Array<[string, string | IdRef]>> {
  const value = (valid: fc.Arbitrary<string | IdRef>, bad: fc.Arbitrary<string | IdRef>) => (hostile ? fc.oneof(valid, bad) : valid);
  return fc
    .tuple(
      fc.tuple(...fields.map(([name, valid, bad]) => fc.option(value(valid, bad).map((v): [string, string | IdRef] => [name, v]), { nil: undefined, freq: 2 }))),
      !hostile ? fc.constant<Array<[string, string | IdRef]>>([]) : fc.oneof(
        { arbitrary: fc.constant<Array<[string, string | IdRef]>>([]), weight: 5 },
        {
          arbitrary: fc.array(fc.tuple(fc.constantFrom('limit', 'offset', 'search', '__proto__', 'constructor[prototype]', 'a[b]', 'x', ''), adversarialString), {
            minLength: 1,
            maxLength: 3,
          }),
          weight: 1,
        },
      ),
    )
    .map(([chosen, extra]) => [...chosen.filter((pair): pair is [string, string | IdRef] => pair !== undefined), ...extra]);
}

// ---------------------------------------------------------------------------------------------
// Routes

interface RouteSpec {
  name: string;
  method: string;
  path: Array<string | PoolName>;
  query?: QueryField[];
  body?: BodyArbitraries;
  headers?: fc.Arbitrary<Array<[string, string]>>;
  weight: number;
}

const projectBody = objectBody({ name: text, baseLanguage: locale, translationLanguages: fc.array(locale, { maxLength: 4 }) });
const projectPatch = objectBody({
  name: fc.option(text, { nil: null }),
  baseLanguage: fc.option(locale, { nil: null }),
  translationLanguages: fc.option(fc.array(locale, { maxLength: 4 }), { nil: null }),
});
const groupBody = objectBody({ technicalName, displayName: text, parentId: fc.option(ownIdValue('group'), { nil: null }) });
const groupPatch = objectBody({
  technicalName: fc.option(technicalName, { nil: null }),
  displayName: fc.option(text, { nil: null }),
  parentId: fc.option(ownIdValue('group'), { nil: null }),
});
const entryBody = objectBody({ technicalName, baseTerm: text, contextInfo: fc.option(text, { nil: null }) });
const entryPatch = objectBody({
  technicalName: fc.option(technicalName, { nil: null }),
  baseTerm: fc.option(text, { nil: null }),
  contextInfo: fc.option(text, { nil: null }),
  minorEdit: fc.boolean(),
});
const ifMatch = fc.array(
  fc.tuple(fc.constant('if-match'), fc.oneof(fc.constantFrom('*', '"x"', 'W/"x"', '""', '"', ',', '"2024-01-01T00:00:00.000Z"'), adversarialString)),
  { maxLength: 1 },
);
const ifNoneMatch = fc.array(fc.tuple(fc.constant('if-none-match'), fc.oneof(fc.constantFrom('*', '"v1-json"', 'W/"v2-json"', '"a", "b"', ''), adversarialString)), {
  maxLength: 1,
});

const ROUTES: RouteSpec[] = [
  { name: 'GET /info', method: 'GET', path: ['info'], weight: 1 },
  { name: 'GET /locales', method: 'GET', path: ['locales'], weight: 1 },
  { name: 'GET /version', method: 'GET', path: ['version'], weight: 1 },
  { name: 'GET /projects', method: 'GET', path: ['projects'], query: PAGE_QUERY, weight: 3 },
  { name: 'POST /projects', method: 'POST', path: ['projects'], body: projectBody, weight: 5 },
  { name: 'GET /projects/{id}', method: 'GET', path: ['projects', 'project'], weight: 3 },
  { name: 'PATCH /projects/{id}', method: 'PATCH', path: ['projects', 'project'], body: projectPatch, weight: 5 },
  { name: 'DELETE /projects/{id}', method: 'DELETE', path: ['projects', 'project'], weight: 0.3 },
  { name: 'GET /projects/{id}/groups', method: 'GET', path: ['projects', 'project', 'groups'], query: [...PAGE_QUERY, ['parentId', ownId('group'), idIn('group')]], weight: 4 },
  { name: 'GET /projects/{id}/groups/summary', method: 'GET', path: ['projects', 'project', 'groups', 'summary'], weight: 2 },
  { name: 'POST /projects/{id}/groups', method: 'POST', path: ['projects', 'project', 'groups'], body: groupBody, weight: 10 },
  { name: 'GET /groups/{id}', method: 'GET', path: ['groups', 'group'], weight: 3 },
  { name: 'PATCH /groups/{id}', method: 'PATCH', path: ['groups', 'group'], body: groupPatch, weight: 8 },
  { name: 'DELETE /groups/{id}', method: 'DELETE', path: ['groups', 'group'], weight: 1 },
  {
    name: 'GET /groups/{id}/entries',
    method: 'GET',
    path: ['groups', 'group', 'entries'],
    query: [
      ...PAGE_QUERY,
      ['search', fc.constantFrom('a', 'ALPHA', 'hello', '%', '_', '\\', 'a%', '%a_', 'İ', "'"), adversarialString],
      ['withTranslations', fc.constantFrom('true', 'false'), fc.oneof(fc.constantFrom('1', 'yes', '', 'TRUE'), adversarialString)],
    ],
    weight: 4,
  },
  { name: 'POST /groups/{id}/entries', method: 'POST', path: ['groups', 'group', 'entries'], body: entryBody, weight: 10 },
  { name: 'GET /entries/{id}', method: 'GET', path: ['entries', 'entry'], weight: 3 },
  { name: 'PATCH /entries/{id}', method: 'PATCH', path: ['entries', 'entry'], body: entryPatch, weight: 6 },
  { name: 'DELETE /entries/{id}', method: 'DELETE', path: ['entries', 'entry'], weight: 1 },
  {
    name: 'GET /projects/{id}/entries/untranslated',
    method: 'GET',
    path: ['projects', 'project', 'entries', 'untranslated'],
    query: [...PAGE_QUERY, ['languageCode', validLocale, locale]],
    weight: 3,
  },
  {
    name: 'PUT /entries/{id}/translations',
    method: 'PUT',
    path: ['entries', 'entry', 'translations'],
    body: objectBody({ language: projectLanguage, translation: text }),
    headers: ifMatch,
    weight: 10,
  },
  {
    name: 'DELETE /entries/{id}/translations',
    method: 'DELETE',
    path: ['entries', 'entry', 'translations'],
    body: objectBody({ language: projectLanguage }),
    headers: ifMatch,
    weight: 3,
  },
  // Review (CONTRACT "Review"): the single actions bound to the text read, and the bulk review.
  ...(['review', 'confirm'] as const).map((action) => ({
    name: `POST /entries/{id}/translations/${action}`,
    method: 'POST',
    path: ['entries', 'entry', 'translations', action] as Array<string | PoolName>,
    body: objectBody({ language: projectLanguage }),
    headers: ifMatch,
    weight: 3,
  })),
  {
    name: 'DELETE /entries/{id}/translations/review',
    method: 'DELETE',
    path: ['entries', 'entry', 'translations', 'review'],
    body: objectBody({ language: projectLanguage }),
    weight: 2,
  },
  {
    name: 'POST /projects/{id}/reviews',
    method: 'POST',
    path: ['projects', 'project', 'reviews'],
    body: objectBody({ language: projectLanguage, entryIds: fc.array(ownIdValue('entry'), { maxLength: 5 }) }),
    weight: 2,
  },
  {
    name: 'GET /projects/{id}/entries/unreviewed',
    method: 'GET',
    path: ['projects', 'project', 'entries', 'unreviewed'],
    query: [...PAGE_QUERY, ['languageCode', validLocale, locale]],
    weight: 2,
  },
  { name: 'GET /projects/{id}/progress', method: 'GET', path: ['projects', 'project', 'progress'], weight: 1 },
  { name: 'GET /invitations', method: 'GET', path: ['invitations'], weight: 0.5 },
  { name: 'PATCH /info', method: 'PATCH', path: ['info'], body: objectBody({ firstName: text, lastName: text, locale, timezone: fc.constantFrom('UTC', 'Europe/Berlin', 'Mars/Olympus', '') }), weight: 1 },
  // The web application's routes: with an API key the session-only ones answer 403; sign-in and
  // sign-up hash passwords (~0.3 s each), so they are asked for rarely.
  { name: 'GET /auth/session', method: 'GET', path: ['auth', 'session'], weight: 0.5 },
  { name: 'POST /auth/sign-in', method: 'POST', path: ['auth', 'sign-in'], body: objectBody({ email, password: text }), weight: 0.3 },
  { name: 'POST /auth/sign-out', method: 'POST', path: ['auth', 'sign-out'], weight: 0.3 },
  { name: 'PUT /auth/password', method: 'PUT', path: ['auth', 'password'], body: objectBody({ currentPassword: text, newPassword: text }), weight: 0.3 },
  { name: 'GET /keys', method: 'GET', path: ['keys'], weight: 0.3 },
  { name: 'POST /keys', method: 'POST', path: ['keys'], body: objectBody({ name: text, expiresAt: fc.option(fc.constantFrom('2099-01-01T00:00:00.000Z', '2000-01-01T00:00:00Z', 'soon'), { nil: null }) }), weight: 0.3 },
  { name: 'DELETE /keys/{id}', method: 'DELETE', path: ['keys', 'user'], weight: 0.3 },
  { name: 'GET /projects/{id}/members', method: 'GET', path: ['projects', 'project', 'members'], query: PAGE_QUERY, weight: 2 },
  { name: 'POST /projects/{id}/members', method: 'POST', path: ['projects', 'project', 'members'], body: objectBody({ email, role }), weight: 3 },
  { name: 'POST /projects/{id}/members/accept', method: 'POST', path: ['projects', 'project', 'members', 'accept'], weight: 2 },
  { name: 'PATCH /projects/{id}/members/{userId}', method: 'PATCH', path: ['projects', 'project', 'members', 'user'], body: objectBody({ role }), weight: 2 },
  { name: 'DELETE /projects/{id}/members/{userId}', method: 'DELETE', path: ['projects', 'project', 'members', 'user'], weight: 1 },
  {
    name: 'POST /projects/{id}/transfer-ownership',
    method: 'POST',
    path: ['projects', 'project', 'transfer-ownership'],
    body: objectBody({ userId: ownIdValue('user') }),
    weight: 1,
  },
  ...['json', 'vue-i18n', 'i18next', 'flutter'].map(
    (format): RouteSpec => ({
      name: `GET /projects/{id}/export/${format}`,
      method: 'GET',
      path: ['projects', 'project', 'export', format],
      query: [['format', fc.constantFrom('true', 'false'), fc.oneof(fc.constantFrom('1', '0', 'yes', ''), adversarialString)]],
      headers: ifNoneMatch,
      weight: 1.5,
    }),
  ),
];

/** The probes outside /api/v1 and paths no route has. */
const STRAY_PATHS = [
  '/healthz',
  '/readyz',
  '/',
  '/api',
  '/api/v1',
  '/api/v1/',
  '/api/v2/projects',
  '//api/v1/projects',
  '/api/v1//projects',
  '/API/V1/PROJECTS',
  '/api/v1/projects/',
  '/api/v1/../healthz',
  '/api/v1/%2e%2e/healthz',
  '/api/v1/projects/..%2f..%2fhealthz',
  '/api/v1/projects/%2F',
  '/api/v1/groups/%00',
  '/api/v1/groups/%zz',
  '/api/v1/groups/%ED%A0%80',
  '/api/v1/groups/%C0%AE%C0%AE',
  '/api/v1/groups/' + 'a'.repeat(600),
  '/api/v1/entries/x/translations/extra',
  '/api/v1/projects?limit=1#frag',
  '/api/v1/projects;jsessionid=1',
  '/api/v1/projects/%3F',
  '/api/v1/locales?__proto__[x]=1',
  '/api/v1/version/..',
  '/healthz?x=%',
  '*',
];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'TRACE'];
const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  'application/json, text/plain',
  '',
  'json',
  'application/json; ' + 'p=v;'.repeat(200),
];

const contentType = fc.oneof({ arbitrary: fc.constant<string | null>('application/json'), weight: 3 }, { arbitrary: fc.constantFrom<string | null>(null, ...CONTENT_TYPES), weight: 1 });

const RAW_BODIES = ['{', '{"a":}', "{'a':1}", '[', 'nul', '{"a":1}{"b":2}', '{"a":1,}', '\ufeff{}', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '"just a string"', '123', 'null', '1e999', '{"a":1e999}', '   ', ''];

/** A hostile body: the route's object with hostile fields mostly, else anything at all. */
function hostileBody(body: BodyArbitraries | undefined): fc.Arbitrary<Body> {
  const alternatives: Array<fc.WeightedArbitrary<Body>> = [
    { arbitrary: fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 4 }), contentType }), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant('raw' as const), text: fc.oneof(fc.constantFrom(...RAW_BODIES), fc.string({ maxLength: 50 })), contentType }), weight: 2 },
    {
      arbitrary: fc.record({
        kind: fc.constant('deep' as const),
        shape: fc.constantFrom('array' as const, 'object' as const),
        depth: fc.constantFrom(10, 100, 1_000, 5_000, 20_000, 100_000),
        contentType: fc.constant('application/json'),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('bytes' as const),
        bytes: fc.oneof(
          fc.constantFrom<number[]>([0xff, 0xfe], [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xae, 0x22, 0x7d], [0xed, 0xa0, 0x80], [0x00]),
          fc.array(fc.nat(255), { maxLength: 20 }),
        ),
        contentType,
      }),
      weight: 1,
    },
    { arbitrary: fc.constant({ kind: 'none' as const }), weight: 1 },
  ];
  if (body) alternatives.push({ arbitrary: fc.record({ kind: fc.constant('json' as const), value: body.hostile, contentType }), weight: 12 });
  return fc.oneof(...alternatives);
}

/** The body a well-formed request carries. */
function validBody(body: BodyArbitraries | undefined): fc.Arbitrary<Body> {
  if (!body) return fc.constant({ kind: 'none' as const });
  return fc.record({ kind: fc.constant('json' as const), value: body.valid, contentType: fc.constant('application/json') });
}

const headerValue = fc.oneof(adversarialString, fc.constantFrom('x'.repeat(8_000), 'y'.repeat(200_000)));
const extraHeaders: fc.Arbitrary<Array<[string, string]>> = fc.array(
  fc.tuple(
    fc.constantFrom('accept', 'accept-encoding', 'x-forwarded-for', 'x-forwarded-proto', 'origin', 'cookie', 'content-encoding', 'x-http-method-override', 'range', 'if-match', 'if-none-match', 'x-request-id', 'accept-language'),
    headerValue,
  ),
  { minLength: 1, maxLength: 3 },
);

const validAuth = fc.record({
  caller: fc.oneof({ arbitrary: fc.constant<Caller>('owner'), weight: 4 }, { arbitrary: fc.constantFrom<Caller>('editor', 'viewer'), weight: 1 }),
  form: fc.constant<AuthForm>('bearer'),
});
const hostileAuth = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  {
    arbitrary: fc.record({
      caller: fc.constantFrom<Caller>('owner', 'editor', 'viewer', 'revoked'),
      form: fc.constantFrom<AuthForm>('bearer', 'lowercase', 'spaces', 'basic', 'bare', 'two-tokens', 'empty-bearer', 'junk-key', 'long-key', 'twice'),
    }),
    weight: 5,
  },
);

const HOSTILE_SEGMENTS = ['..', '.', '%2e%2e', '%2E%2E%2F', '..%2f..%2fprojects', '%2F', 'a%2Fb', '%00', 'a%00b', '%ff', '%ED%A0%80', '%C0%AE', "'%20OR%201=1", '*', '%25', '%3F', '%23', 'a'.repeat(501), '%u0041'];

/** What a hostile request breaks: one part of it, or all of them at once. */
type Axis = 'path' | 'query' | 'headers' | 'body' | 'method' | 'auth' | 'all';

function routeRequest(spec: RouteSpec, axis: Axis | null): fc.Arbitrary<FuzzRequest> {
  const breaks = (part: Axis) => axis === part || axis === 'all';
  const segments = fc.tuple(
    ...spec.path.map((segment): fc.Arbitrary<string | IdRef> => {
      if (segment !== 'project' && segment !== 'group' && segment !== 'entry' && segment !== 'user') return fc.constant(segment);
      if (!breaks('path')) return ownId(segment);
      return fc.oneof(
        { arbitrary: idIn(segment), weight: 3 },
        { arbitrary: fc.record({ raw: fc.constantFrom(...HOSTILE_SEGMENTS), encoded: fc.constant(true) }), weight: 2 },
      );
    }),
  );
  const ownHeaders = breaks('headers') ? fc.tuple(spec.headers ?? fc.constant([]), extraHeaders).map(([own, extra]) => [...own, ...extra]) : (spec.headers ?? fc.constant([]));
  return fc.record({
    route: fc.constant(spec.name),
    context: fc.nat(),
    method: breaks('method') ? fc.constantFrom(...METHODS) : fc.constant(spec.method),
    path: segments,
    query: queryOf(spec.query ?? [], breaks('query')),
    rawQuery: breaks('query') ? fc.boolean() : fc.constant(false),
    auth: breaks('auth') ? hostileAuth : validAuth,
    headers: ownHeaders,
    body: breaks('body') ? hostileBody(spec.body) : validBody(spec.body),
  });
}

const strayRequest: fc.Arbitrary<FuzzRequest> = fc.record({
  route: fc.constant('stray path'),
  context: fc.nat(),
  method: fc.constantFrom(...METHODS),
  path: fc.constantFrom(...STRAY_PATHS).map((path) => [`=${path}`]),
  query: fc.constant([]),
  rawQuery: fc.constant(false),
  auth: fc.oneof(validAuth, hostileAuth),
  headers: fc.oneof(fc.constant<Array<[string, string]>>([]), extraHeaders),
  body: hostileBody(undefined),
});

const AXES: Axis[] = ['path', 'query', 'headers', 'body', 'body', 'body', 'method', 'auth', 'all'];

/**
 * Requests to every route (weighted): a third well-formed (so that state grows and deep code runs),
 * the rest hostile in one part or all; now and then a path no route has.
 */
export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  ...ROUTES.map((spec) => ({
    arbitrary: fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: fc.constantFrom(...AXES), weight: 2 }).chain((axis) => routeRequest(spec, axis)),
    weight: Math.round(spec.weight * 10),
  })),
  { arbitrary: strayRequest, weight: 30 },
);

/** Every route name the generator aims at (for the coverage check). */
export const ROUTE_NAMES = ROUTES.map((route) => route.name);
