/**
 * Closing the embedded store closes every connection it opened, used or not: one left open holds its
 * file (and a lock on it, once it has read), so that the last connection's close cannot checkpoint
 * the WAL away, and the process keeps a descriptor per store it ever opened.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';

/** The files under `dir` this process has open (Linux: /proc/self/fd). */
function openFilesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir)) files.push(target);
    } catch {
      // closed between the listing and the readlink
    }
  }
  return files;
}

describe.runIf(process.platform === 'linux')('closing the embedded store', () => {
  it('leaves none of its files open, though nothing queried its export reader or usage file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tolk-closing-'));
    try {
      const store = await openStore(`sqlite:${join(dir, 'tolk.db')}`);
      expect(openFilesUnder(dir).length).toBeGreaterThan(0);
      await store.close();
      expect(openFilesUnder(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
