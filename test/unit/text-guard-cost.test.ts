/**
 * The unstorable-text check walks every request's JSON before validation, so its cost must stay a small
 * share of parsing that JSON, however wide or deep (issue 30, M3): building a path string for every
 * node made it cost 1–10 times the parse of a 1 MiB body.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { findUnstorable } from '../../src/http/plugins/text-guard.js';

/** The fastest of `runs` timings of `work`, in ms (the machines are shared and noisy). */
function fastest(work: () => unknown, runs = 5): number {
  let best = Infinity;
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe('the text guard', () => {
  const bodies = {
    wide: `{"x":[${'"ab",'.repeat(200_000)}"ab"]}`,
    deep: `{"x":${'['.repeat(500_000)}"ab"${']'.repeat(500_000)}}`,
    keys: `{"x":{${Array.from({ length: 70_000 }, (_, i) => `"k${i}":"v"`).join(',')}}}`,
  };

  it('walks a clean 1 MiB body, wide, deep or with many keys, in less time than JSON.parse took for it', () => {
    for (const [shape, text] of Object.entries(bodies)) {
      expect(text.length).toBeLessThan(1024 * 1024);
      const value = JSON.parse(text);
      const parse = fastest(() => JSON.parse(text));
      const guard = fastest(() => expect(findUnstorable(value, '/body')).toBeUndefined());
      expect(guard, `${shape}: the guard took ${guard.toFixed(1)} ms, the parse ${parse.toFixed(1)} ms`).toBeLessThan(parse);
    }
  });

  it('names the first unstorable text or key by its path, cut after 100 levels', () => {
    expect(findUnstorable({ a: ['ok', { b: 'x\u0000' }] }, '/body')).toBe('/body/a/1/b');
    expect(findUnstorable({ a: { ['k\ud800']: 1 } }, '/body')).toBe('/body/a/k\ud800');
    expect(findUnstorable('\udc00', '/params')).toBe('/params');
    expect(findUnstorable({ a: '\ud83d\ude00', b: ['\ud800\udc00'] }, '/body')).toBeUndefined();
    expect(findUnstorable(JSON.parse(`${'['.repeat(150)}"\\udc00"${']'.repeat(150)}`), '/body')).toBe(`/body${'/0'.repeat(100)}/…`);
    expect(findUnstorable(Buffer.from([0, 0xd8, 0]), '/body')).toBeUndefined();
  });
});
