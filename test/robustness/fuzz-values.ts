/**
 * The values fuzzed requests are made of: hostile strings and numbers, mostly-valid field values,
 * body objects with hostile, missing and prototype-polluting fields. Ids, e-mails, languages and
 * huge strings are markers, made concrete at send time (fuzz-materialize.ts).
 */
import fc from 'fast-check';

export type PoolName = 'project' | 'group' | 'entry' | 'user';

/** An id in a path or body: one of the run's own (or the bystander's), or a hostile string. */
export type IdRef = { pool: PoolName; foreign: boolean; pick: number } | { raw: string; encoded: boolean };

/** Markers inside a body template (plain objects, so fast-check can print them). */
export type Marker =
  | { $id: IdRef }
  | { $email: 'owner' | 'editor' | 'viewer' | 'bystander' | 'nobody' }
  | { $huge: string; count: number }
  /** one of the request's project's translation languages */
  | { $language: number };

// ---------------------------------------------------------------------------------------------
// Hostile values

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDFFF',
  "' OR '1'='1",
  "'; DROP TABLE groups; --",
  '"; DELETE FROM entries; --',
  '%',
  '_',
  '\\',
  '%_\\',
  '\\%',
  '100%',
  'a_b',
  '../',
  '..\\..\\',
  '%2e%2e%2f',
  '/etc/passwd',
  '<script>alert(1)</script>',
  '{{constructor.constructor("x")()}}',
  '${7*7}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'true',
  'NaN',
  '-1',
  '0',
  '1e309',
  '0x10',
  '9007199254740993',
  '\u202eevil',
  '😀',
  'ß',
  'İ',
  'e\u0301',
  '\r\n',
  '\t',
  'ﬀ',
];

export const adversarialString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 5 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: fc.constantFrom("'", ';', '-', '%', '_', '\\', '"', '/', '.', '\u0000', 'a', 'Z'), maxLength: 30 }), weight: 2 },
);

/** A huge string, made at send time: `unit` repeated `count` times. */
const hugeString: fc.Arbitrary<Marker> = fc.record({
  $huge: fc.constantFrom('a', 'é', '😀', '%', "'", '\u0000'),
  count: fc.constantFrom(101, 201, 2_001, 10_000, 10_001, 100_000, 1_048_576, 1_153_434),
});

const numberLike: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.constantFrom(-1, 0, 1, 1.5, 1e21, -1e21, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -0),
  fc.double(),
  fc.constantFrom('1', '20', '-1', '1e2', '0x1f', ' 5 ', '5abc'),
);

/** Any JSON value a field could wrongly get. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: adversarialString, weight: 5 },
  { arbitrary: numberLike, weight: 2 },
  { arbitrary: fc.constantFrom(true, false, null, [], {}, [null], { a: 1 }, ['de']), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
  { arbitrary: hugeString, weight: 1 },
);

const OMIT = Symbol('omit');

/** A field that is mostly valid, sometimes hostile, sometimes missing. */
const field = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: anyValue, weight: 3 }, { arbitrary: fc.constant(OMIT), weight: 1 });

const extraKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'projectId', 'ownerId', 'createdAt', 'translatorId', 'role', 'x', '');

/** Keys that would poison a naive merge are defined as own properties, so JSON.stringify keeps them. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A body object: the valid form of `fields`, and the hostile one (fields hostile or missing, extra or prototype-polluting keys). */
export interface BodyArbitraries {
  valid: fc.Arbitrary<unknown>;
  hostile: fc.Arbitrary<unknown>;
}

export function objectBody(fields: Record<string, fc.Arbitrary<unknown>>): BodyArbitraries {
  return { valid: objectOf(fields, false), hostile: objectOf(fields, true) };
}

function objectOf(fields: Record<string, fc.Arbitrary<unknown>>, hostile: boolean): fc.Arbitrary<unknown> {
  const names = Object.keys(fields);
  return fc
    .tuple(
      fc.tuple(...names.map((name) => (hostile ? field(fields[name]!) : fields[name]!))),
      hostile
        ? fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, { arbitrary: fc.array(fc.tuple(extraKey, anyValue), { minLength: 1, maxLength: 3 }), weight: 1 })
        : fc.constant([]),
    )
    .map(([values, extras]) => {
      const body: Record<string, unknown> = {};
      names.forEach((name, i) => {
        if (values[i] !== OMIT) defineOwn(body, name, values[i]);
      });
      for (const [key, value] of extras) defineOwn(body, key, value);
      return body;
    });
}

// ---------------------------------------------------------------------------------------------
// Mostly valid field values

const LOCALES = ['en', 'de', 'fr', 'pt', 'pt-BR', 'es', 'ja', 'en-US', 'de-DE'];
export const validLocale = fc.constantFrom(...LOCALES);
/** Mostly a translation language of the request's project, else any tag. */
export const projectLanguage: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.nat().map((n): Marker => ({ $language: n })), weight: 4 },
  { arbitrary: fc.constantFrom(...LOCALES, 'xx', 'pt_br'), weight: 1 },
);
export const locale = fc.oneof({ arbitrary: validLocale, weight: 8 }, { arbitrary: fc.constantFrom('xx', 'EN', 'pt_br', 'de-de', 'en-', '*'), weight: 1 });
const NAMES = ['alpha', 'beta', 'gamma', 'main', 'title', 'button', 'label', 'auth', 'login', 'form', 'errors', 'common'];
export const technicalName = fc.oneof(
  { arbitrary: fc.constantFrom(...NAMES), weight: 3 },
  { arbitrary: fc.stringMatching(/^[a-z][a-zA-Z0-9]{3,11}$/), weight: 3 },
  { arbitrary: fc.constantFrom('a', 'abc', 'Alpha', '1abc', 'a-b', 'a b', 'a.b', 'a_b', 'x'.repeat(100), 'x'.repeat(101)), weight: 1 },
);
/** Text a store keeps as it is (no NUL, no lone surrogate), with metacharacters now and then. */
export const text = fc.oneof(
  { arbitrary: fc.string({ minLength: 1, maxLength: 30 }).filter((value) => /\S/.test(value) && !value.includes('\u0000')), weight: 3 },
  { arbitrary: fc.constantFrom("' OR '1'='1", '%_\\', '100%', 'a_b', '😀 ß İ', '<b>{{x}}</b>', '{name}', "it's"), weight: 1 },
);
export const ownId = (pool: PoolName): fc.Arbitrary<IdRef> => fc.record({ pool: fc.constant(pool), foreign: fc.constant(false), pick: fc.nat() });
export const idIn = (pool: PoolName): fc.Arbitrary<IdRef> =>
  fc.oneof(
    { arbitrary: fc.record({ pool: fc.constant(pool), foreign: fc.constant(false), pick: fc.nat() }), weight: 8 },
    { arbitrary: fc.record({ pool: fc.constant(pool), foreign: fc.constant(true), pick: fc.nat() }), weight: 1 },
    { arbitrary: fc.record({ raw: adversarialString, encoded: fc.constant(false) }), weight: 1 },
  );
export const ownIdValue = (pool: PoolName) => ownId(pool).map((ref): Marker => ({ $id: ref }));
export const email: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom('owner', 'editor', 'viewer', 'bystander', 'nobody').map((who): Marker => ({ $email: who as 'owner' })), weight: 4 },
  { arbitrary: fc.constantFrom('a@b', 'EDITOR@EXAMPLE.COM', "x'@y.z", '%@%', '@', 'a@b.c'.repeat(60)), weight: 1 },
);
export const role = fc.constantFrom('admin', 'editor', 'reviewer', 'translator', 'viewer');
