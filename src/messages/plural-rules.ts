/**
 * CLDR plural categories per language, from the Node runtime's Intl.PluralRules (the same data
 * intl-messageformat, i18next and our vue-i18n pluralRules use), cached: exports ask per message.
 *
 * A language the runtime has no rules for (about a third of the catalog's languages, e.g. `aa`, `qu`)
 * would silently get the process's default locale's rules from Intl, so exports would depend on the
 * machine's LANG. Such a language gets CLDR's root rule instead: `other` for every number.
 */
import { PLURAL_CATEGORIES, type PluralCategory } from './message.js';

const cardinalRules = new Map<string, Intl.PluralRules | null>();
const ordinalRules = new Map<string, Intl.PluralRules | null>();
const categoriesByLanguage = new Map<string, readonly PluralCategory[]>();
const ordinalCategoriesByLanguage = new Map<string, readonly PluralCategory[]>();
const ROOT: readonly PluralCategory[] = ['other'];

/** The runtime's rules for `language`, or null when it has none of its own. */
function rulesOf(language: string, ordinal: boolean): Intl.PluralRules | null {
  const cache = ordinal ? ordinalRules : cardinalRules;
  let rules = cache.get(language);
  if (rules === undefined) {
    const type = ordinal ? 'ordinal' : 'cardinal';
    rules = hasOwnRules(language) ? new Intl.PluralRules(language, { type }) : null;
    cache.set(language, rules);
  }
  return rules;
}

/** True when the runtime has plural rules for `language` itself (not its default locale's). */
export function hasOwnRules(language: string): boolean {
  try {
    return Intl.PluralRules.supportedLocalesOf([language], { localeMatcher: 'lookup' }).length > 0;
  } catch {
    return false; // not a well-formed tag
  }
}

/** The categories `language` uses (cardinal, or ordinal), in the canonical order zero, one, two, few, many, other. */
export function pluralCategoriesOf(language: string, ordinal = false): readonly PluralCategory[] {
  const cache = ordinal ? ordinalCategoriesByLanguage : categoriesByLanguage;
  let categories = cache.get(language);
  if (!categories) {
    const rules = rulesOf(language, ordinal);
    const used = new Set<string>(rules ? rules.resolvedOptions().pluralCategories : ROOT);
    categories = PLURAL_CATEGORIES.filter((category) => used.has(category));
    cache.set(language, categories);
  }
  return categories;
}

/** The category of `count` in `language` (cardinal, or ordinal for selectordinal). */
export function pluralCategoryOf(language: string, count: number, ordinal = false): PluralCategory {
  const rules = rulesOf(language, ordinal);
  return rules ? (rules.select(count) as PluralCategory) : 'other';
}

/**
 * Numbers that tell every CLDR rule apart: 0–200 (all the i%10, i%100 rules), decimals (fractions
 * change categories in many languages), and millions (fr, es, it, pt `many`). Used to decide, by
 * trying them, whether a target's own plural choice picks the same text as ICU for each of them.
 */
export const PLURAL_SAMPLES: readonly number[] = [
  ...Array.from({ length: 201 }, (_, i) => i),
  0.5, 1.5, 2.5, 3.5, 5.5, 10.5, 21.5, 100.5, 0.1, 1.1, 2.1, 1.25,
  1000, 1001, 10_000, 100_000, 1_000_000, 1_000_001, 2_000_000, 10_000_000,
];
