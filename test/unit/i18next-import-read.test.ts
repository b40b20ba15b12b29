/**
 * The i18next reader (i18next-import.ts, i18next-levels.ts) on archive members, before any project:
 * what each key of a file becomes. The API tests (test/api/import-i18next-layouts.test.ts) check the
 * same against i18next itself.
 */
import { describe, expect, it } from 'vitest';
import { readI18nextImport } from '../../src/imports/formats/i18next-import.js';
import { MAX_IMPORT_NESTING } from '../../src/imports/import-limits.js';
import type { ImportDocument } from '../../src/imports/import-document.js';

const members = (files: Record<string, unknown>) => Object.entries(files).map(([name, value]) => ({ name, text: typeof value === 'string' ? value : JSON.stringify(value) }));

/** The document's texts of `language` by dotted key. */
const textsOf = (document: ImportDocument, language: string) =>
  Object.fromEntries([...(document.texts.get(language) ?? new Map())].map(([key, text]) => [document.keys.get(key)!.key, text]));

describe('readI18nextImport', () => {
  it('splits dotted keys at any level, into the same entries as nesting', async () => {
    const document = await readI18nextImport(members({
      'en/translation.json': { a: { b: { c: 'nested' } }, 'x.y': 'dotted', deep: { 'p.q': { r: 'mixed' } } },
      'de/translation.json': { 'a.b.c': 'punktiert', x: { y: 'verschachtelt' }, 'deep.p': { 'q.r': 'gemischt' } },
    }), 'en', undefined);
    expect(document.refused).toEqual([]);
    expect(textsOf(document, 'en')).toEqual({ 'a.b.c': 'nested', 'x.y': 'dotted', 'deep.p.q.r': 'mixed' });
    expect(textsOf(document, 'de')).toEqual({ 'a.b.c': 'punktiert', 'x.y': 'verschachtelt', 'deep.p.q.r': 'gemischt' });
    expect([...document.groups.values()].map((path) => path.join('.')).sort()).toEqual(['a', 'a.b', 'deep', 'deep.p', 'deep.p.q', 'x']);
  });

  it('folds a plural family given dotted, nested or both', async () => {
    const document = await readI18nextImport(members({
      'en/translation.json': { 'a.count_one': '{{count}} one', a: { count_other: '{{count}} other' } },
    }), 'en', undefined);
    expect(document.refused).toEqual([]);
    expect(textsOf(document, 'en')).toEqual({ 'a.count': '{count, plural, one {{count} one} other {{count} other}}' });
  });

  it('refuses by name a key given twice, an empty part, and one splitting deeper than an import reads', async () => {
    const tooDeep = Array.from({ length: MAX_IMPORT_NESTING + 1 }, (_, index) => `k${index}`).join('.');
    const document = await readI18nextImport(members({
      'en/translation.json': { a: { b: 'nested' }, 'a.b': 'dotted', 'c..d': 'x', '.e': 'x', 'f.': 'x', [tooDeep]: 'x', n: { count_one: 'x', count_other: 'y' }, 'n.count_one': 'z' },
    }), 'en', undefined);
    expect(document.refused.map(({ key, message }) => [key, message])).toEqual([
      ['c..d', 'an empty name between dots'],
      ['.e', 'an empty name between dots'],
      ['f.', 'an empty name between dots'],
      [tooDeep, `splits on "." into ${MAX_IMPORT_NESTING + 1} names, deeper than an import reads (${MAX_IMPORT_NESTING} levels)`],
      ['a.b', 'the file gives this key twice'],
      ['n.count_one', 'the file gives this key twice'],
    ]);
    expect(textsOf(document, 'en')).toEqual({ 'a.b': 'nested', 'n.count': '{count, plural, one {x} other {y}}' });
  });

  it('a text and a group of one name both reach the document (the plan refuses the clash)', async () => {
    const document = await readI18nextImport(members({ 'en/translation.json': { a: 'text', 'a.b': 'below' } }), 'en', undefined);
    expect(textsOf(document, 'en')).toEqual({ a: 'text', 'a.b': 'below' });
  });

  it('a family without _other takes the last category present for other, with a warning naming it', async () => {
    const document = await readI18nextImport(members({
      'ru/translation.json': { year_many: '{{count}} лет', year_one: '{{count}} год', year_few: '{{count}} года', after: 'x' },
      'en/translation.json': { none_zero: 'nothing', only_one: 'just {{count}}', both_zero: 'none', both_one: 'one' },
    }), 'en', undefined);
    expect(textsOf(document, 'ru')).toEqual({ year: '{count, plural, one {{count} год} few {{count} года} many {{count} лет} other {{count} лет}}', after: 'x' });
    // the family takes its last key's place in the file's order
    expect(Object.keys(textsOf(document, 'ru'))).toEqual(['year', 'after']);
    expect(textsOf(document, 'en')).toEqual({
      none: '{count, plural, =0 {nothing} other {nothing}}',
      only: '{count, plural, one {just {count}} other {just {count}}}',
      both: '{count, plural, =0 {none} one {one} other {one}}',
    });
    expect(document.warnings.map(({ key, language, message }) => [key, language, message])).toEqual([
      ['year', 'ru', "the plural has no year_other: its other form is year_many's text"],
      ['none', 'en', "the plural has no none_other: its other form is none_zero's text"],
      ['only', 'en', "the plural has no only_other: its other form is only_one's text"],
      ['both', 'en', "the plural has no both_other: its other form is both_one's text"],
    ]);
  });

  it('reads sub-folders as namespaces, names members outside the layout, refuses unreadable ones by name', async () => {
    const document = await readI18nextImport(members({
      'en/components/dialog.json': { close: 'Close' },
      'en/a/b/c/d.json': { deep: 'Deep' },
      'en/.DS_Store': 'binary',
      'en/notes.txt': 'x',
      'en.json': { save: 'Save' },
      'de/components/dialog.json': '{',
      'de/a/b/c/d.json': 'null',
    }), 'en', undefined);
    expect(textsOf(document, 'en')).toEqual({ 'components/dialog.close': 'Close', 'a/b/c/d.deep': 'Deep' });
    expect(document.files.map((file) => file.name)).toEqual(['en/components/dialog.json', 'en/a/b/c/d.json']);
    expect(document.warnings.map(({ key, language, message }) => [key, language, message])).toEqual([
      ['en/.DS_Store', '', 'not read: a hidden file'],
      ['en/notes.txt', '', 'not read: outside the i18next layout <lang>/<namespace>.json'],
      ['en.json', '', 'not read: outside the i18next layout <lang>/<namespace>.json'],
    ]);
    expect(document.refused.map(({ key, language, message }) => [key, language, message.replace(/:.*/, '')])).toEqual([
      ['de/components/dialog.json', 'de', 'not JSON'],
      ['de/a/b/c/d.json', 'de', 'must be an object of keys and texts, not null'],
    ]);
  });

  it('namespaces=false reads a sub-folder file into the top level, as it reads any namespace file', async () => {
    const document = await readI18nextImport(members({ 'en/components/dialog.json': { close: 'Close' } }), 'en', false);
    expect(textsOf(document, 'en')).toEqual({ close: 'Close' });
  });
});
