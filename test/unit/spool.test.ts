import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpoolSet } from '../../src/exports/spool.js';

async function copied(copy: (out: PassThrough) => Promise<void>): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => out.on('end', resolve));
  await copy(out);
  out.end();
  await ended;
  return Buffer.concat(chunks).toString('utf8');
}

/** Everything under `dir`, one level of directories deep. */
const filesUnder = (dir: string) => readdirSync(dir).flatMap((name) => [name, ...readdirSync(join(dir, name)).map((file) => `${name}/${file}`)]);

describe('SpoolSet', () => {
  let under: string;
  beforeEach(() => {
    under = mkdtempSync(join(tmpdir(), 'spool-test-'));
  });
  afterEach(() => rmSync(under, { recursive: true, force: true }));

  it('keeps small spools in memory and never touches the disk', async () => {
    const spools = new SpoolSet({ under });
    const spool = spools.spool();
    spool.write('{"a":');
    spool.write('"ü"}');
    expect(await spool.size()).toBe(Buffer.byteLength('{"a":"ü"}'));
    expect(await copied((out) => spool.copyTo(out))).toBe('{"a":"ü"}');
    expect(readdirSync(under)).toEqual([]);
    await spools.dispose();
  });

  it('moves to a file past the set\'s allowance, gives back every byte and any range, and removes the file', async () => {
    const spools = new SpoolSet({ under, inMemoryBytes: 1000 });
    const [first, second] = [spools.spool(), spools.spool()];
    let expected = '';
    for (let i = 0; i < 5000; i += 1) {
      const piece = `${i}:Grüße ${'x'.repeat(i % 17)};`;
      first.write(piece);
      second.write(piece.toUpperCase());
      expected += piece;
      if (i % 500 === 0) {
        await first.settle();
        await second.settle();
      }
    }
    const secondExpected = expected.toUpperCase();
    const middle = first.offset();
    first.write('the end');
    expected += 'the end';
    expect(await first.size()).toBe(Buffer.byteLength(expected));
    expect((await copied((out) => first.copyTo(out))) === expected).toBe(true);
    expect(await copied((out) => first.copyTo(out, middle))).toBe('the end');
    expect(await copied((out) => first.copyTo(out, 2, 9))).toBe(Buffer.from(expected).subarray(2, 9).toString());
    // compared as a boolean: a failure would print two 100 kB strings
    expect((await copied((out) => second.copyTo(out))) === secondExpected).toBe(true);
    expect(filesUnder(under).filter((name) => name.includes('/'))).toHaveLength(2);
    await spools.dispose();
    expect(readdirSync(under)).toEqual([]);
  });

  it('fills chunks again once their bytes are in a file, and every spool still gives back its own bytes', async () => {
    // Three spools of ~1.5 MB each settle turn by turn: each gets chunks another one wrote to its file.
    const spools = new SpoolSet({ under, inMemoryBytes: 200_000 });
    const all = [spools.spool(), spools.spool(), spools.spool()];
    const expected = ['', '', ''];
    for (let round = 0; round < 600; round += 1) {
      for (const [i, spool] of all.entries()) {
        const piece = `<${i}:${round}>${String.fromCharCode(97 + ((round + i) % 26)).repeat(2_500)}ß`;
        spool.write(piece);
        expected[i] += piece;
      }
      if (round % 30 === 0) for (const spool of all) await spool.settle();
    }
    for (const [i, spool] of all.entries()) {
      expect(await spool.size()).toBe(Buffer.byteLength(expected[i]!));
      // compared as a boolean: a failure would print two 1.5 MB strings
      expect((await copied((out) => spool.copyTo(out))) === expected[i]).toBe(true);
    }
    await spools.dispose();
  });

  it('refuses with 503 ERR_UNAVAILABLE, naming no path, when the temporary directory cannot take the files', async () => {
    const spools = new SpoolSet({ under: join(under, 'missing'), inMemoryBytes: 10 });
    const spool = spools.spool();
    spool.write('more than ten bytes of text');
    await expect(spool.size()).rejects.toMatchObject({ code: 'ERR_UNAVAILABLE', message: expect.not.stringContaining(under) });
    await spools.dispose();
  });

  it('gives spools that reach their files at the same moment a file each', async () => {
    const spools = new SpoolSet({ under, inMemoryBytes: 10 });
    const all = Array.from({ length: 4 }, (_, i) => {
      const spool = spools.spool();
      spool.write(`spool ${i} `.repeat(100));
      return spool;
    });
    await Promise.all(all.map((spool) => spool.size()));
    expect(filesUnder(under).filter((name) => name.includes('/'))).toHaveLength(4);
    for (const [i, spool] of all.entries()) expect(await copied((out) => spool.copyTo(out))).toBe(`spool ${i} `.repeat(100));
    await spools.dispose();
  });

  it('counts the offset of text not yet settled in bytes, not characters', () => {
    const spool = new SpoolSet({ under }).spool();
    spool.write('€');
    expect(spool.offset()).toBe(3);
  });
});
