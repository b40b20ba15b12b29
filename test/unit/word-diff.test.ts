/**
 * The History's word diff (web/src/components/history/wordDiff.ts): the shared words kept, a
 * replacement as removed then added, whitespace kept so that each side joins back into its text.
 */
import { describe, expect, it } from 'vitest';
import { wordDiff, type DiffPart } from '../../web/src/components/history/wordDiff.js';

const side = (parts: DiffPart[], kind: 'removed' | 'added') => parts.filter((part) => part.kind !== kind).map((part) => part.text).join('');

describe('wordDiff', () => {
  it('marks a replaced word as removed then added, the rest kept', () => {
    expect(wordDiff('Hallo schöne neue Welt', 'Hallo liebe Welt')).toEqual([
      { kind: 'same', text: 'Hallo ' },
      { kind: 'removed', text: 'schöne neue' },
      { kind: 'added', text: 'liebe' },
      { kind: 'same', text: ' Welt' },
    ]);
  });

  it('answers one same part for equal texts, one added part from nothing', () => {
    expect(wordDiff('a b', 'a b')).toEqual([{ kind: 'same', text: 'a b' }]);
    expect(wordDiff('', 'neu hier')).toEqual([{ kind: 'added', text: 'neu hier' }]);
  });

  it('gives each text back from its side of the parts, newlines and runs of spaces included', () => {
    const from = 'one  two\nthree {count} four';
    const to = 'one two\nthree {n} four five';
    const parts = wordDiff(from, to);
    expect(side(parts, 'added')).toBe(from);
    expect(side(parts, 'removed')).toBe(to);
  });

  it('says "all replaced" for texts too long to compare word by word, still true to both', () => {
    const from = Array.from({ length: 2_500 }, (_, i) => `w${i}`).join(' ');
    const to = Array.from({ length: 2_500 }, (_, i) => `v${i}`).join(' ');
    const parts = wordDiff(from, to);
    expect(parts.map((part) => part.kind)).toEqual(['removed', 'added']);
    expect(side(parts, 'added')).toBe(from);
    expect(side(parts, 'removed')).toBe(to);
  });
});
