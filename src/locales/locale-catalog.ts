import { LOCALES } from './locale-data.js';

export interface LocaleRegion {
  readonly code: string;
  readonly name: string;
}

export interface Locale {
  readonly code: string;
  readonly name: string;
  /** null rather than [] so clients can tell "no regional variants" apart at a glance. */
  readonly regions: readonly LocaleRegion[] | null;
}

// Built once at module load: validation runs on every write, so it must not scan the list.
const KNOWN_TAGS: ReadonlySet<string> = new Set(
  LOCALES.flatMap((locale) => [locale.code, ...(locale.regions ?? []).map((r) => r.code)]),
);

// Keyed by a case- and separator-insensitive form so typos like `pt_br` map back in O(1).
const CANONICAL_BY_LOOSE_KEY: ReadonlyMap<string, string> = new Map(
  [...KNOWN_TAGS].map((tag) => [looseKey(tag), tag]),
);

function looseKey(tag: string): string {
  return tag.trim().replace(/_/g, '-').toLowerCase();
}

/** The full catalog for `GET /locales`; shared and immutable, so callers must not mutate it. */
export function listLocales(): readonly Locale[] {
  return LOCALES;
}

/** Exact, case-sensitive check so stored tags stay canonical (`en-US`, never `en-us`). */
export function isKnownLocale(tag: string): boolean {
  return KNOWN_TAGS.has(tag);
}

/** Canonical spelling of a near-miss (`pt_br` -> `pt-BR`) for "did you mean" errors; undefined if unknown or already canonical. */
export function suggestLocale(tag: string): string | undefined {
  if (typeof tag !== 'string') return undefined;
  const canonical = CANONICAL_BY_LOOSE_KEY.get(looseKey(tag));
  return canonical === tag ? undefined : canonical;
}
