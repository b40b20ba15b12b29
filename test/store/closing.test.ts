/**
 * Closing the embedded store closes every connection it opened, used or not: one left open holds its
 * file (and a lock on it, once it has read), so that the last connection's close cannot checkpoint
 * the WAL away, and the process keeps a descriptor per store it ever opened.
 */
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../src/domain/users/create-user.js';
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

  it('leaves the WAL empty though another connection still has the file open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tolk-closing-'));
    const path = join(dir, 'tolk.db');
    let other: SQLite.Database | undefined;
    try {
      const store = await openStore(`sqlite:${path}`);
      await createUser(store.db, { email: 'wal@example.com', firstName: 'W', lastName: 'Al', dailyQuota: 10 });
      // Another process's connection (a CLI command, a second server) that has read: not the last to close, the store's SQLite keeps its WAL.
      other = new SQLite(path, { readonly: true });
      expect(other.prepare('select count(*) as n from users').get()).toEqual({ n: 1 });
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
      await store.close();
      expect(existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0, 'pages left in the WAL after close').toBe(0);
      // Everything is in the database file itself.
      other.close();
      other = undefined;
      const copy = new SQLite(path, { readonly: true });
      expect(copy.prepare('select email from users').all()).toEqual([{ email: 'wal@example.com' }]);
      copy.close();
    } finally {
      other?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
