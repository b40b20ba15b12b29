/**
 * The embedded store's usage file commits the writes of one turn of the event loop together
 * (sqlite/turn-commit-driver.ts): one commit for the counts of requests that arrived together, each
 * count still exact, a failed batch committing none of its writes, reads seeing the writes before them.
 */
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/open-store.js';
import { countRequest } from '../../src/store/repositories/usage.js';
import { TurnCommitSqliteDriver } from '../../src/store/sqlite/turn-commit-driver.js';
import { usagePath } from '../../src/store/sqlite/usage-file.js';
import { openTestStore } from '../helpers/server.js';
import { walFramesWrittenBy } from '../helpers/wal.js';

const DAY = '2025-01-01';

describe('the usage file: one commit per turn of the event loop (SQLite)', () => {
  let store: Store;
  let url: string;
  let dispose: () => Promise<void>;
  afterEach(async () => {
    await store.close();
    await dispose();
  });
  const open = async () => ({ store, url, dispose } = await openTestStore('sqlite'));

  const framesWrittenBy = (write: () => Promise<unknown>) => walFramesWrittenBy(usagePath(url), write);

  it('commits the counts of one turn once, where counts made one after another commit each', async () => {
    await open();
    const counts = Array.from({ length: 20 }, (_, i) => `user-${i}`);
    const oneTurn = await framesWrittenBy(() => Promise.all(counts.map((user) => countRequest(store.usage, user, DAY, 100))));
    const oneByOne = await framesWrittenBy(async () => {
      for (const user of counts) await countRequest(store.usage, user, DAY, 100);
    });
    // one commit writes each page it changed once (the table and its key's index here); twenty write them twenty times
    expect(oneTurn).toBeLessThanOrEqual(4);
    expect(oneByOne).toBeGreaterThanOrEqual(20);
  });

  it('keeps every count exact inside a batch: past the limit each further request is refused', async () => {
    await open();
    const results = await Promise.all(Array.from({ length: 30 }, () => countRequest(store.usage, 'ann', DAY, 20)));
    expect(results).toEqual([...Array.from({ length: 20 }, (_, i) => i + 1), ...Array.from({ length: 10 }, () => null)]);
    const row = await store.usage.selectFrom('daily_usage').select('count').where('user_id', '=', 'ann').executeTakeFirstOrThrow();
    expect(row.count).toBe(20);
  });

  it('commits none of a failed batch: each of its writes fails with the error, a good one included', async () => {
    await open();
    const good = store.usage.insertInto('daily_usage').values({ user_id: 'ann', day: DAY, count: 1 }).execute();
    const bad = store.usage.insertInto('daily_usage').values({ user_id: 'bob', day: DAY, count: null as unknown as number }).execute();
    const [first, second] = await Promise.allSettled([good, bad]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('rejected');
    expect(String((first as PromiseRejectedResult).reason)).toMatch(/NOT NULL/);
    expect(await store.usage.selectFrom('daily_usage').selectAll().execute()).toEqual([]);
    // the next turn's writes commit as usual
    expect(await countRequest(store.usage, 'ann', DAY, 5)).toBe(1);
  });

  it('answers a read after the writes queued before it in the same turn', async () => {
    await open();
    const counted = countRequest(store.usage, 'ann', DAY, 5);
    const rows = await store.usage.selectFrom('daily_usage').select('count').execute();
    expect(rows).toEqual([{ count: 1 }]);
    expect(await counted).toBe(1);
  });

  it('refuses a transaction, which would take in the writes of other requests', async () => {
    await open();
    await expect(store.usage.transaction().execute(async () => undefined)).rejects.toThrow(/no transactions/);
  });

  it('commits what is queued when the store closes', async () => {
    await open();
    // the driver itself: through Kysely a query reaches it a few promise hops later, when closing may have begun
    const database = new SQLite(usagePath(url));
    const driver = new TurnCommitSqliteDriver(database);
    const insert = store.usage.insertInto('daily_usage').values({ user_id: 'ann', day: DAY, count: 7 }).compile();
    const inserted = driver.execute(insert);
    await driver.destroy();
    expect((await inserted).numAffectedRows).toBe(1n);
    expect(database.open).toBe(false);
    expect(await store.usage.selectFrom('daily_usage').select('count').execute()).toEqual([{ count: 7 }]);
  });
});
