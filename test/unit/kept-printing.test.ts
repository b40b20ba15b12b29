/** An export's printing of texts is kept by (language, text), in two bounded generations. */
import { describe, expect, it } from 'vitest';
import { keptPrinting } from '../../src/exports/kept-printing.js';

describe('keptPrinting', () => {
  const counting = () => {
    const calls: string[] = [];
    const print = keptPrinting((text, language) => {
      calls.push(`${language}:${text}`);
      return `${language}|${text}`;
    }, 2);
    return { calls, print };
  };

  it('prints a text once per language while it is kept', () => {
    const { calls, print } = counting();
    expect(print('{n} files', 'en')).toBe('en|{n} files');
    expect(print('{n} files', 'en')).toBe('en|{n} files');
    expect(print('{n} files', 'ru')).toBe('ru|{n} files');
    expect(calls).toEqual(['en:{n} files', 'ru:{n} files']);
  });

  it('keeps a language and a text apart from another pair that reads alike when joined', () => {
    const { print } = counting();
    expect(print('b', 'a')).toBe('a|b');
    expect(print('\u0000b', 'a')).toBe('a|\u0000b');
  });

  it('keeps at most two generations: the oldest texts are printed again', () => {
    const { calls, print } = counting();
    for (const text of ['a', 'b', 'c', 'd', 'e']) print(text, 'en');
    print('d', 'en');
    print('a', 'en');
    expect(calls).toEqual(['en:a', 'en:b', 'en:c', 'en:d', 'en:e', 'en:a']);
  });
});
