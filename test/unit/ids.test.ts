/** Ids: CUID2 (the spec's format for projects), made with node:crypto's native SHA3, which the package's own check accepts; and ordered ids for what a project holds. */
import { isCuid } from '@paralleldrive/cuid2';
import { describe, expect, it } from 'vitest';
import { newId, newOrderedId } from '../../src/domain/shared/ids.js';

describe('newId', () => {
  it('makes 24-character CUID2 ids that @paralleldrive/cuid2 accepts, all different', () => {
    const ids = Array.from({ length: 50_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[a-z][0-9a-z]{23}$/);
      expect(isCuid(id), id).toBe(true);
    }
  });

  it('spreads first letters and digits evenly (no byte-modulo bias a chi-square test would see)', () => {
    const counts = new Map<string, number>();
    const samples = 26_000;
    for (let i = 0; i < samples; i += 1) {
      const letter = newId()[0]!;
      counts.set(letter, (counts.get(letter) ?? 0) + 1);
    }
    const expected = samples / 26;
    const chiSquare = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(counts.size).toBe(26);
    // 25 degrees of freedom: p = 0.001 at 52.6
    expect(chiSquare).toBeLessThan(52.6);
  });
});

describe('newOrderedId', () => {
  it('makes 24-character lowercase ids, letter first, all different, each sorting after the one before', () => {
    const ids = Array.from({ length: 50_000 }, () => newOrderedId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const [index, id] of ids.entries()) {
      expect(id).toMatch(/^[a-z][0-9a-z]{23}$/);
      if (index < 100) expect(isCuid(id), id).toBe(true);
      if (index > 0) expect(id > ids[index - 1]!, `${ids[index - 1]} then ${id}`).toBe(true);
    }
  });

  it('keeps 10 random digits after the time and count (ids made in one ms are not guessable from each other)', () => {
    const tails = Array.from({ length: 2_000 }, () => newOrderedId().slice(14));
    expect(new Set(tails).size).toBe(tails.length);
    const digits = new Set(tails.join(''));
    expect(digits.size).toBe(36);
  });
});
