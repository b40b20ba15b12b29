import { describe, expect, it } from 'vitest';
import { ContentCache } from '../../src/domain/shared/content-cache.js';

describe('ContentCache', () => {
  it('serves a value only for the project version it was kept for', () => {
    const cache = new ContentCache(1000);
    cache.set('a', 'p1', 3, 'three', 10);
    expect(cache.get('a', 'p1', 3)).toBe('three');
    expect(cache.get('a', 'p2', 3)).toBeUndefined();
    expect(cache.get('a', 'p1', 3)).toBeUndefined(); // a mismatch drops the stale value
    cache.set('a', 'p1', 4, 'four', 10);
    expect(cache.get('a', 'p1', 3)).toBeUndefined();
  });

  it('drops the least recently used values beyond its size, and never keeps an oversized one', () => {
    const cache = new ContentCache(800);
    for (const key of 'abcdefgh') cache.set(key, 'p', 1, key.toUpperCase(), 100); // exactly full
    expect(cache.get('a', 'p', 1)).toBe('A'); // a is now the most recently used, b the least
    cache.set('i', 'p', 1, 'I', 100);
    expect(cache.get('b', 'p', 1)).toBeUndefined();
    for (const key of 'acdefghi') expect(cache.get(key, 'p', 1)).toBe(key.toUpperCase());
    cache.set('huge', 'p', 1, 'H', 101); // more than an eighth of the budget
    expect(cache.get('huge', 'p', 1)).toBeUndefined();
    expect(cache.get('c', 'p', 1)).toBe('C');
    expect(cache.projectOf('a')).toBe('p');
  });
});
