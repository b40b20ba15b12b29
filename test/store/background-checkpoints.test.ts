/**
 * The embedded store's WAL checkpoints run in a worker thread for a server (sqlite/background-checkpoints.ts):
 * the server's own connections checkpoint nothing while it runs (not even in a large import's commit),
 * the worker moves the pages into the database file meanwhile, and once it is gone SQLite's default is back.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/open-store.js';
import type { Database } from '../../src/store/schema.js';
import { sqlitePath } from '../../src/store/sqlite/connect.js';
import { startBackgroundCheckpoints } from '../../src/store/sqlite/background-checkpoints.js';

const autocheckpoint = async (db: Kysely<Database>) => Number(Object.values((await sql`pragma wal_autocheckpoint`.execute(db)).rows[0] as object)[0]);

/** Commits `count` transactions of ~4 KB each to a scratch table: about one WAL page a commit. */
async function writePages(db: Kysely<Database>, count: number): Promise<void> {
  await sql`create table if not exists scratch (text text not null)`.execute(db);
  for (let i = 0; i < count; i += 1) await sql`insert into scratch (text) values (${`${i}`.padEnd(4000, '.')})`.execute(db);
}

async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

describe('WAL checkpoints off the event loop (SQLite)', () => {
  let dir: string | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    store = undefined;
    dir = undefined;
  });

  const open = async (backgroundCheckpoints: boolean) => {
    dir = mkdtempSync(join(tmpdir(), 'tolk-checkpoints-'));
    const url = `sqlite:${join(dir, 'tolk.db')}`;
    store = await openStore(url, { backgroundCheckpoints });
    return { store, file: sqlitePath(url) };
  };

  it('moves the pages into the database file while the server only writes the WAL', async () => {
    const { store, file } = await open(true);
    expect(await autocheckpoint(store.db)).toBe(0);
    expect(await autocheckpoint(store.usage)).toBe(0);
    const before = statSync(file).size;
    // ~1,500 pages: past SQLite's own mark (1,000); in WAL mode the database file grows only by a
    // checkpoint, and only the worker checkpoints here (the server's connections none at all).
    await writePages(store.db, 1_500);
    expect(await eventually(() => statSync(file).size > before + 4_000_000, 5_000)).toBe(true);
  });

  it('leaves SQLite its own checkpoints without the option, and gives them back when the worker stops', async () => {
    const plain = await open(false);
    expect(await autocheckpoint(plain.store.db)).toBe(1_000);
    const checkpoints = await startBackgroundCheckpoints([plain.file], [plain.store.db]);
    expect(checkpoints.running).toBe(true);
    expect(await autocheckpoint(plain.store.db)).toBe(0);
    await checkpoints.stop();
    expect(checkpoints.running).toBe(false);
    expect(await autocheckpoint(plain.store.db)).toBe(1_000);
  });

  it('leaves the commit of a transaction larger than any mark to write the WAL only', async () => {
    const plain = await open(false);
    // A worker of another file: this one's pages can reach its database file only by a checkpoint in its own commit.
    const other = join(dir!, 'other.db');
    new SQLite(other).close();
    const checkpoints = await startBackgroundCheckpoints([other], [plain.store.db]);
    await sql`create table scratch (text text not null)`.execute(plain.store.db);
    const before = statSync(plain.file).size;
    // ~12,000 pages in one commit (a large import's kind): past SQLite's default mark and the former 10,000-page backstop
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 12000)
      insert into scratch (text) select i || substr(hex(zeroblob(2000)), 1, 3990) from n`.execute(plain.store.db);
    expect(statSync(plain.file).size).toBe(before);
    await checkpoints.stop();
  });

  it('starts the WAL over under writes that never pause', async () => {
    const plain = await open(false);
    const startOverFrames = 256;
    const checkpoints = await startBackgroundCheckpoints([plain.file], [plain.store.db], { everyMs: 10, startOverFrames });
    const wal = () => statSync(`${plain.file}-wal`).size;
    // The WAL header's checkpoint sequence number (bytes 12-15) rises each time the WAL starts over.
    const startedOver = () => readFileSync(`${plain.file}-wal`).readUInt32BE(12);
    // 4,000 commits of a page and its indexes' each, back to back: with PASSIVE checkpoints alone the
    // WAL never starts over (each write begins before the worker has copied the frames before it) and
    // grew to 51 MB here; with the writer's checkpoint past the mark, to 5-9 MB (16.6 MB under the
    // whole suite's load: the frames of a few turns past the mark).
    let longest = 0;
    await sql`create table scratch (text text not null)`.execute(plain.store.db);
    const before = startedOver();
    for (let i = 0; i < 4_000; i += 1) {
      await sql`insert into scratch (text) values (${`${i}`.padEnd(4000, '.')})`.execute(plain.store.db);
      longest = Math.max(longest, wal());
      // the next request's bytes come with a turn of the event loop, as a server's do
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(startedOver() - before).toBeGreaterThanOrEqual(2);
    expect(longest).toBeLessThan(32_000_000);
    await checkpoints.stop();
  });

  it('changes nothing when the worker cannot start (a file that is not there)', async () => {
    const plain = await open(false);
    const checkpoints = await startBackgroundCheckpoints([join(dir!, 'missing.db')], [plain.store.db]);
    expect(checkpoints.running).toBe(false);
    expect(await autocheckpoint(plain.store.db)).toBe(1_000);
    await checkpoints.stop();
  });
});
