/**
 * An archive of up to SMALL_ARCHIVE_BYTES is made in memory and compressed in one call; a larger one
 * is streamed through gzip. Both must give the same bytes for the same files (ETags are per content
 * version, whichever way an instance wrote it), and each must be a tar.gz that reads back whole.
 */
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { writeArchive } from '../../src/exports/archive.js';
import { push } from '../../src/exports/output.js';

async function archiveOf(files: { name: string; bytes: Buffer }[], smallUpTo: number): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  // Written in pieces, as the exports copy their spools.
  await writeArchive(
    out,
    new Date('2026-01-02T03:04:05Z'),
    files.map(({ name, bytes }) => ({
      name,
      size: bytes.length,
      write: async (file) => {
        for (let at = 0; at < bytes.length; at += 7_000) await push(file, bytes.subarray(at, at + 7_000));
      },
    })),
    smallUpTo,
  );
  if (!out.writableEnded) out.end();
  return Buffer.concat(chunks);
}

async function filesIn(archive: Buffer): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const reader = extract();
  reader.on('entry', (header, stream, next) => {
    const parts: Buffer[] = [];
    stream.on('data', (part) => parts.push(part as Buffer));
    stream.on('end', () => {
      files[header.name] = Buffer.concat(parts).toString('utf8');
      next();
    });
  });
  const done = new Promise<void>((resolve, reject) => {
    reader.on('finish', () => resolve());
    reader.on('error', reject);
  });
  reader.end(gunzipSync(archive));
  await done;
  return files;
}

describe('archiveWriter', () => {
  const text = (size: number, seed: string) => Buffer.from(`{"${seed}": "${'Grüße, {name}! '.repeat(size / 16)}${randomBytes(8).toString('hex')}"}`);
  const files = [
    { name: 'en/translation.json', bytes: text(40_000, 'en') },
    { name: 'de/translation.json', bytes: text(90_000, 'de') },
    { name: 'empty/translation.json', bytes: Buffer.alloc(0) },
  ];

  it('gives the same bytes made in memory as streamed', async () => {
    const inMemory = await archiveOf(files, Infinity);
    const streamed = await archiveOf(files, 0);
    expect(inMemory.equals(streamed)).toBe(true);
    expect(await filesIn(inMemory)).toEqual(Object.fromEntries(files.map(({ name, bytes }) => [name, bytes.toString('utf8')])));
  });

  it('gives the same bytes for the same files every time', async () => {
    expect((await archiveOf(files, Infinity)).equals(await archiveOf(files, Infinity))).toBe(true);
  });
});
