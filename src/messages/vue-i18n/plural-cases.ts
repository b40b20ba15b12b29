/**
 * Plural cases lined up across messages whose forms one count chooses together (a vue-i18n message and
 * the plurals its links bring in): which case of each answers a count, by ICU's rule (an exact `=N`
 * first, then the number's category, then `other`).
 */
import { PLURAL_CATEGORIES, exactValue } from '../message.js';
import { pluralCategoryOf } from '../plural-rules.js';

/** The key among `keys` that answers the counts `key` stands for (`=0` → `=0`, else 0's category, else `other`). */
export function caseFor(keys: readonly string[], key: string, language: string): string {
  if (keys.includes(key)) return key;
  const exact = exactValue(key);
  if (exact !== undefined) {
    const category = pluralCategoryOf(language, exact);
    if (keys.includes(category)) return category;
  }
  return 'other';
}

/** Every key of the given plurals once: the exact cases by value, then the categories in canonical order. */
export function caseKeysOf(keyLists: readonly (readonly string[])[]): string[] {
  const all = new Set(keyLists.flat());
  const exact = [...all].filter((key) => exactValue(key) !== undefined).sort((a, b) => exactValue(a)! - exactValue(b)!);
  return [...exact, ...PLURAL_CATEGORIES.filter((category) => all.has(category))];
}
