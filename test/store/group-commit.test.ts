/**
 * The embedded store commits writes that come together in one commit (sqlite/group-commit.ts): one
 * commit for the transactions of requests that arrived together, each write keeping its own outcome,
 * none answered before it is durable, and a failed commit failing every write it held.
 */
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/open-store.js';
import { sqlitePath } from '../../src/store/sqlite/connect.js';
import { openTestStore } from '../helpers/server.js';
import { walFramesWrittenBy } from '../helpers/wal.js';

const now = '2025-01-01T00:00:00.000Z';
const user = (id: string) => ({
  id, email: `${id}@example.com`, email_key: `${id}@example.com`, first_name: id, last_name: 'Test',
  locale: 'en', timezone: 'UTC', daily_quota: 10, member_limit: 5, created_at: now,
});

describe('the embedded store: one commit for writes that come together', () => {
  let store: Store;
  let url: string;
  let dispose: () => Promise<void>;
  let probe: SQLite.Database | undefined;
  afterEach(async () => {
    probe?.close();
    probe = undefined;
    await store.close();
    await dispose();
  });
  const open = async () => ({ store, url, dispose } = await openTestStore('sqlite'));
  /** A connection of its own to the store file: it sees only what is committed. */
  const committedIds = () => {
    probe ??= new SQLite(sqlitePath(url), { readonly: true });
    return (probe.prepare('select id from users order by id').all() as { id: string }[]).map((row) => row.id);
  };
  const insertIn = (id: string) => store.db.transaction().execute((trx) => trx.insertInto('users').values(user(id)).execute());

  const framesWrittenBy = (write: () => Promise<unknown>) => walFramesWrittenBy(sqlitePath(url), write);

  it('commits transactions started together once, where transactions one after another commit each', async () => {
    await open();
    const together = await framesWrittenBy(() => Promise.all(Array.from({ length: 20 }, (_, i) => insertIn(`turn-${i}`))));
    const oneByOne = await framesWrittenBy(async () => {
      for (let i = 0; i < 20; i += 1) await insertIn(`one-${i}`);
    });
    // a commit writes each page it changed once (the table and its indexes); twenty write them twenty times
    expect(together).toBeLessThanOrEqual(6);
    expect(oneByOne).toBeGreaterThanOrEqual(40);
    expect(committedIds()).toHaveLength(40);
  });

  it('answers a write only once another connection sees it', async () => {
    await open();
    const seenAtAnswer: boolean[] = [];
    const writes = Array.from({ length: 5 }, (_, i) =>
      insertIn(`ann-${i}`).then(() => seenAtAnswer.push(committedIds().includes(`ann-${i}`))),
    );
    // a write on its own, outside a transaction, too
    writes.push(store.db.insertInto('users').values(user('bob')).execute().then(() => seenAtAnswer.push(committedIds().includes('bob'))));
    await Promise.all(writes);
    expect(seenAtAnswer).toEqual([true, true, true, true, true, true]);
  });

  it('fails a failed transaction alone: the others started with it commit', async () => {
    await open();
    const ann = insertIn('ann');
    const failing = store.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user('half-done')).execute();
      await trx.insertInto('users').values({ ...user('bad'), email: null as unknown as string }).execute();
    });
    const results = await Promise.allSettled([ann, failing, insertIn('bob'), store.db.insertInto('users').values(user('ann')).execute()]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/NOT NULL/);
    expect(String((results[3] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(committedIds()).toEqual(['ann', 'bob']);
  });

  it('fails every write of a group whose commit fails, and commits none of them', async () => {
    await open();
    await sql`create table child (id text primary key, user_id text not null references users (id))`.execute(store.db);
    // A foreign key checked at COMMIT (deferred) makes the group's commit itself fail.
    const ann = insertIn('ann');
    const deferred = store.db.transaction().execute(async (trx) => {
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      await sql`insert into child (id, user_id) values ('c1', 'nobody')`.execute(trx);
    });
    const results = await Promise.allSettled([ann, deferred, store.db.insertInto('users').values(user('bob')).execute()]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const result of results) expect(String((result as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(committedIds()).toEqual([]);
    // the next writes commit as usual
    await insertIn('cid');
    expect(committedIds()).toEqual(['cid']);
  });

  it('fails every write of a group whose transaction SQLite ended, and commits none of them', async () => {
    await open();
    const ann = insertIn('ann');
    const ending = store.db.transaction().execute(async (trx) => {
      await sql`rollback`.execute(trx);
      throw new Error('gave up');
    });
    const results = await Promise.allSettled([ann, ending, insertIn('bob')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(committedIds()).toEqual(['bob']);
  });

  it('runs a statement that is not a write (a pragma) outside the group, so that it takes effect', async () => {
    await open();
    await sql`create table child (id text primary key, user_id text not null references users (id))`.execute(store.db);
    const ann = insertIn('ann');
    // foreign_keys is ignored inside a transaction: it must not join the open group
    await sql`pragma foreign_keys = off`.execute(store.db);
    await store.db.insertInto('child' as never).values({ id: 'c1', user_id: 'nobody' } as never).execute();
    await sql`pragma foreign_keys = on`.execute(store.db);
    await ann;
    expect(committedIds()).toEqual(['ann']);
    expect(probe!.prepare('select id from child').all()).toEqual([{ id: 'c1' }]);
  });

  it('commits what is written when the store closes', async () => {
    await open();
    const written = insertIn('ann');
    await store.close();
    await written;
    expect(committedIds()).toEqual(['ann']);
    // reopened, so that afterEach has a store to close
    store = await openStore(url);
  });
});
