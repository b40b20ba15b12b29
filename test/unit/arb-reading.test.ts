/** gen-l10n's plural cases read into ICU as gen-l10n means them in the file's language (Intl.pluralLogic). */
import IntlMessageFormat from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { readArbMessage } from '../../src/messages/flutter/read-flutter.js';

const render = (icu: string, language: string, count: number) => new IntlMessageFormat(icu, language).format({ n: count }) as string;

describe('readArbMessage with the language', () => {
  it('reads a Russian =1 as 1 and also as the one category (21, 31), as pluralLogic passes it as `one`', () => {
    const icu = readArbMessage('{n, plural, =1{one file} few{{n} files (few)} other{{n} files}}', new Set(), false, 'ru');
    expect(icu).toBe('{n, plural, =1 {one file} one {one file} few {{n} files (few)} other {{n} files}}');
    expect([1, 21, 3, 5].map((n) => render(icu, 'ru', n))).toEqual(['one file', 'one file', '3 files (few)', '5 files']);
  });

  it('reads a French =1 as 1 and also as the one category (0 and 1.5), where the ARB has no one case', () => {
    const icu = readArbMessage('{n, plural, =0{} =1{un} other{{n}}}', new Set(), false, 'fr');
    expect(icu).toBe('{n, plural, =0 {} =1 {un} one {un} other {{n}}}');
    expect([0, 1, 1.5, 2].map((n) => render(icu, 'fr', n))).toEqual(['', 'un', 'un', '2']);
  });

  it('reads an English zero (no such CLDR category) as =0, which is what pluralLogic does with it', () => {
    const icu = readArbMessage('{n, plural, zero{none} one{one} other{{n}}}', new Set(), false, 'en');
    expect(icu).toBe('{n, plural, =0 {none} one {one} other {{n}}}');
    expect(render(icu, 'en', 0)).toBe('none');
  });

  it('keeps the cases as written without a language, and where the language has the category itself', () => {
    expect(readArbMessage('{n, plural, =0{none} other{{n}}}')).toBe('{n, plural, =0 {none} other {{n}}}');
    expect(readArbMessage('{n, plural, =0{none} zero{zero} other{{n}}}', new Set(), false, 'lv')).toBe('{n, plural, =0 {none} zero {zero} other {{n}}}');
  });
});
