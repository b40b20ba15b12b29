/**
 * CLDR plural categories per language, from the Node runtime's Intl.PluralRules (the same data
 * intl-messageformat, i18next and our vue-i18n pluralRules use), cached: exports ask per message.
 */
import { PLURAL_CATEGORIES, type PluralCategory } from './message.js';

const cardinalRules = new Map<string, Intl.PluralRules>();
const ordinalRules = new Map<string, Intl.PluralRules>();
const categoriesByLanguage = new Map<string, readonly PluralCategory[]>();
const ordinalCategoriesByLanguage = new Map<string, readonly PluralCategory[]>();

function rulesOf(language: string, ordinal: boolean): Intl.PluralRules {
  const cache = ordinal ? ordinalRules : cardinalRules;
  let rules = cache.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language, { type: ordinal ? 'ordinal' : 'cardinal' });
    cache.set(language, rules);
  }
  return rules;
}

/** The categories `language` uses (cardinal, or ordinal), in the canonical order zero, one, two, few, many, other. */
export function pluralCategoriesOf(language: string, ordinal = false): readonly PluralCategory[] {
  const cache = ordinal ? ordinalCategoriesByLanguage : categoriesByLanguage;
  let categories = cache.get(language);
  if (!categories) {
    const used = new Set<string>(rulesOf(language, ordinal).resolvedOptions().pluralCategories);
    categories = PLURAL_CATEGORIES.filter((category) => used.has(category));
    cache.set(language, categories);
  }
  return categories;
}

/** The category of `count` in `language` (cardinal, or ordinal for selectordinal). */
export function pluralCategoryOf(language: string, count: number, ordinal = false): PluralCategory {
  return rulesOf(language, ordinal).select(count) as PluralCategory;
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
