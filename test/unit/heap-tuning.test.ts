import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, tuneHeapGrowth } from '../../src/heap-tuning.js';

describe('tuneHeapGrowth', () => {
  it("sets the server's heap growing factor when the operator chose none", () => {
    expect(tuneHeapGrowth([], '')).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(tuneHeapGrowth(['--enable-source-maps'], '--max-old-space-size=512')).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it("leaves the operator's own choice alone, on the command line or in NODE_OPTIONS", () => {
    expect(tuneHeapGrowth(['--heap-growing-percent=100'], '')).toBeNull();
    expect(tuneHeapGrowth([], '--max-old-space-size=512 --heap-growing-percent=20')).toBeNull();
    expect(tuneHeapGrowth(['--heap_growing_percent=30'], '')).toBeNull();
  });
});
