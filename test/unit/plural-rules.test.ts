import { describe, expect, it } from 'vitest';
import { listLocales } from '../../src/locales/locale-catalog.js';
import { PLURAL_CATEGORIES } from '../../src/messages/message.js';
import { hasOwnRules, pluralCategoriesOf, pluralCategoryOf } from '../../src/messages/plural-rules.js';

describe('plural categories from the runtime, checked against the locale catalog', () => {
  const catalog = listLocales().flatMap((locale) => [locale.code, ...(locale.regions ?? []).map((region) => region.code)]);

  it('gives every catalog tag at least `other`, in canonical order, and only categories its select() can return', () => {
    for (const tag of catalog) {
      const categories = pluralCategoriesOf(tag);
      expect(categories.at(-1), tag).toBe('other');
      expect([...categories].sort((a, b) => PLURAL_CATEGORIES.indexOf(a) - PLURAL_CATEGORIES.indexOf(b)), tag).toEqual(categories);
      for (const count of [0, 1, 2, 3, 5, 11, 21, 100, 1.5, 1_000_000]) expect(categories, `${tag} ${count}`).toContain(pluralCategoryOf(tag, count));
    }
  });

  it('uses the rules of the tag itself, never of the machine default locale', () => {
    // A language the runtime lacks must not borrow en's one/other (or whatever LANG is): CLDR root says other.
    const lacking = catalog.filter((tag) => !hasOwnRules(tag));
    expect(lacking.length).toBeGreaterThan(0);
    for (const tag of lacking) {
      expect(pluralCategoriesOf(tag), tag).toEqual(['other']);
      expect(pluralCategoryOf(tag, 1), tag).toBe('other');
    }
    // …and a regional tag with rules of its own keeps them (pt-PT's `one` is only 1; Brazilian `one` takes 0).
    expect(pluralCategoryOf('pt-PT', 0)).toBe('other');
    expect(pluralCategoryOf('pt', 0)).toBe('one');
  });

  it('knows the languages whose rules differ', () => {
    expect(pluralCategoriesOf('en')).toEqual(['one', 'other']);
    expect(pluralCategoriesOf('ru')).toEqual(['one', 'few', 'many', 'other']);
    expect(pluralCategoriesOf('ar')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(pluralCategoriesOf('cy')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(pluralCategoriesOf('lv')).toEqual(['zero', 'one', 'other']);
    expect(pluralCategoriesOf('ja')).toEqual(['other']);
    expect(pluralCategoryOf('lv', 10)).toBe('zero');
    expect(pluralCategoryOf('ru', 21)).toBe('one');
    expect(pluralCategoriesOf('en', true)).toEqual(['one', 'two', 'few', 'other']);
  });
});
