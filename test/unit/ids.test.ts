/** Ids are CUID2 (the spec's format), made with node:crypto's native SHA3: the package's own check accepts every one. */
import { isCuid } from '@paralleldrive/cuid2';
import { describe, expect, it } from 'vitest';
import { newId, newIds, newOrderedId } from '../../src/domain/shared/ids.js';

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

describe('newIds', () => {
  it('makes many ids in a worker thread: CUID2, all different, and different from those made here; past the batch, new ones', async () => {
    const idAt = await newIds(30_000);
    const ids = Array.from({ length: 30_000 }, (_, i) => idAt(i));
    const seen = new Set([...ids, ...Array.from({ length: 1_000 }, () => newId())]);
    expect(seen.size).toBe(31_000);
    for (const id of ids.slice(0, 2_000)) expect(isCuid(id), id).toBe(true);
    expect(isCuid(idAt(30_000))).toBe(true);
    expect(seen.has(idAt(30_001))).toBe(false);
    // in ascending order, so that rows written in the batch's order fill the id index page after page
    expect(ids).toEqual([...ids].sort());
  });

  it('makes a few ids without a thread', async () => {
    const idAt = await newIds(3);
    expect(new Set([idAt(0), idAt(1), idAt(2)]).size).toBe(3);
  });
});

describe('newOrderedId', () => {
  it('makes 24-character lowercase ids, letter first, all different, each sorting after the one before', () => {
    const ids = Array.from({ length: 50_000 }, () => newOrderedId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const [index, id] of ids.entries()) {
      expect(id).toMatch(/^[a-z][0-9a-z]{23}$/);
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
