/**
 * The embedded store's two connections: a SELECT outside a transaction is answered from the last
 * committed state at once, while a long write transaction holds the writer; writes wait their turn.
 * Its usage file (the daily counts) beside the main one.
 */
import { rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/open-store.js';
import { prepared } from '../../src/store/prepared.js';
import { sqlitePath } from '../../src/store/sqlite/connect.js';
import { usagePath } from '../../src/store/sqlite/usage-file.js';
import { openTestStore } from '../helpers/server.js';
import { settledWithin } from '../helpers/settled.js';

const now = '2025-01-01T00:00:00.000Z';
const user = (id: string) => ({
  id, email: `${id}@example.com`, email_key: `${id}@example.com`, first_name: id, last_name: 'Test',
  locale: 'en', timezone: 'UTC', daily_quota: 10, member_limit: 5, created_at: now,
});

/** Resolves to what `promise` gave, or to 'pending' if it has not settled after a few turns of the event loop. */
const settledSoon = <T>(promise: Promise<T>) => settledWithin(promise, 50);

describe('the embedded store: reads beside a write transaction', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await openTestStore('sqlite'));
    await store.db.insertInto('users').values(user('ann')).execute();
  });
  afterAll(async () => {
    await store.close();
    await dispose();
  });

  const ids = async () => (await store.db.selectFrom('users').select('id').orderBy('id').execute()).map((row) => row.id);

  it('answers a SELECT from the committed state while a transaction writes, and shows the rows once it commits', async () => {
    let finish!: () => void;
    const holding = new Promise<void>((resolve) => (finish = resolve));
    let insertedInside!: () => void;
    const inserted = new Promise<void>((resolve) => (insertedInside = resolve));
    const transaction = store.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user('bob')).execute();
      // inside, the transaction sees its own row
      expect((await trx.selectFrom('users').select('id').where('id', '=', 'bob').execute()).length).toBe(1);
      insertedInside();
      await holding;
    });
    await inserted;
    expect(await settledSoon(ids())).toEqual(['ann']);
    // a raw SELECT (the readiness probe's kind of query, built with selectNoFrom) is a read too
    expect(await settledSoon(store.db.selectNoFrom(sql<number>`1`.as('one')).execute())).toEqual([{ one: 1 }]);
    finish();
    await transaction;
    expect(await ids()).toEqual(['ann', 'bob']);
  });

  it('makes a write outside the transaction wait for its commit, then run', async () => {
    let finish!: () => void;
    const holding = new Promise<void>((resolve) => (finish = resolve));
    let begun!: () => void;
    const inside = new Promise<void>((resolve) => (begun = resolve));
    const transaction = store.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user('cy')).execute();
      begun();
      await holding;
    });
    await inside;
    const write = store.db.insertInto('users').values(user('dan')).execute();
    expect(await settledSoon(write)).toBe('pending');
    finish();
    await transaction;
    await write;
    expect(await ids()).toEqual(['ann', 'bob', 'cy', 'dan']);
  });

  it('rolls a failed transaction back and hands the writer on', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(user('eve')).execute();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await store.db.insertInto('users').values(user('fay')).execute();
    expect(await ids()).toEqual(['ann', 'bob', 'cy', 'dan', 'fay']);
  });

  // prepared.ts runs these on the driver at once (runAtOnce), past Kysely's executor: the same routes.
  it('runs a prepared statement by the same routes: inside a transaction on its writer, a SELECT outside on the reader, a write outside after the commit', async () => {
    const findUser = prepared(1, (db, id: string) => db.selectFrom('users').select('id').where('id', '=', id));
    // the id as its e-mail too: a prepared builder takes its arguments only as whole values
    const addUser = prepared(1, (db, id: string) => db.insertInto('users').values({ ...user('x'), id, email: id, email_key: id }));
    const seen = async (db: Parameters<typeof findUser>[0], id: string) => (await findUser(db, id)).rows.length === 1;
    let finish!: () => void;
    const holding = new Promise<void>((resolve) => (finish = resolve));
    let begun!: () => void;
    const inside = new Promise<void>((resolve) => (begun = resolve));
    const transaction = store.db.transaction().execute(async (trx) => {
      await addUser(trx, 'gus');
      // the transaction sees its own row, written and read on its writer
      expect(await seen(trx, 'gus')).toBe(true);
      begun();
      await holding;
    });
    await inside;
    // outside: the committed state, at once
    expect(await settledSoon(seen(store.db, 'gus'))).toBe(false);
    const write = addUser(store.db, 'hal');
    expect(await settledSoon(write)).toBe('pending');
    finish();
    await transaction;
    await write;
    expect(await seen(store.db, 'gus')).toBe(true);
    expect(await seen(store.db, 'hal')).toBe(true);
    // a failed transaction's prepared writes roll back with it
    await expect(
      store.db.transaction().execute(async (trx) => {
        await addUser(trx, 'ivy');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await seen(store.db, 'ivy')).toBe(false);
  });
});

describe('the embedded store: the usage file', () => {
  it('takes over the daily counts a store kept in its main file before, once', async () => {
    const { store, url, dispose } = await openTestStore('sqlite');
    try {
      await store.db.insertInto('users').values(user('gil')).execute();
      await store.close();
      // A store from before the usage file: its counts in the main file, no usage file beside it.
      rmSync(usagePath(url));
      const main = new SQLite(sqlitePath(url));
      main.prepare('insert into daily_usage (user_id, day, count) values (?, ?, ?)').run('gil', '2025-01-01', 7);
      main.close();
      const reopened = await openStore(url);
      try {
        expect(await reopened.usage.selectFrom('daily_usage').selectAll().execute()).toEqual([{ user_id: 'gil', day: '2025-01-01', count: 7 }]);
        expect(await reopened.db.selectFrom('daily_usage').selectAll().execute()).toEqual([]);
      } finally {
        await reopened.close();
      }
      // Opened again: nothing moves twice.
      const again = await openStore(url);
      expect(await again.usage.selectFrom('daily_usage').select('count').execute()).toEqual([{ count: 7 }]);
      await again.close();
    } finally {
      await dispose();
    }
  });
});
