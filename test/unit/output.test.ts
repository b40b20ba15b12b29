import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { push } from '../../src/exports/output.js';

describe('push', () => {
  it('waits out backpressure without leaving listeners behind', async () => {
    const received: string[] = [];
    const out = new Writable({
      highWaterMark: 4,
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk.toString());
        setImmediate(done);
      },
    });
    const before = { close: out.listenerCount('close'), error: out.listenerCount('error'), drain: out.listenerCount('drain') };
    for (let i = 0; i < 50; i++) await push(out, `chunk${i};`);
    expect(received.join('')).toBe(Array.from({ length: 50 }, (_, i) => `chunk${i};`).join(''));
    expect({ close: out.listenerCount('close'), error: out.listenerCount('error'), drain: out.listenerCount('drain') }).toEqual(before);
  });

  it('stops when the stream is closed while it waits', async () => {
    const out = new Writable({ highWaterMark: 1, write: () => {} }); // never drains
    const waiting = push(out, 'more than one byte');
    out.destroy();
    await expect(waiting).rejects.toThrow(/client gone/);
  });
});
