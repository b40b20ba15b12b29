/** Queries compiled once and run with new values: the right rows, on both stores, and refusals of builders it cannot serve. */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared } from '../../src/store/prepared.js';
import type { Store } from '../../src/store/open-store.js';
import { DIALECTS } from '../helpers/dialects.js';
import { openTestStore } from '../helpers/server.js';

describe.each(DIALECTS)('prepared queries on %s', (dialect) => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await openTestStore(dialect));
    const now = '2025-01-01T00:00:00.000Z';
    const users = ['ann', 'bob', 'cy'].map((name, i) => ({
      id: name, email: `${name}@example.com`, email_key: `${name}@example.com`, first_name: name, last_name: 'Test',
      locale: 'en', timezone: 'UTC', daily_quota: 10 * (i + 1), member_limit: 5, created_at: now,
    }));
    await store.db.insertInto('users').values(users).execute();
  });
  afterAll(async () => {
    await store.close();
    await dispose();
  });

  it('builds once and runs with each call’s values, constants of the builder kept', async () => {
    let builds = 0;
    const quotaAbove = prepared(2, (db, minimum: number, lastName: string) => {
      builds += 1;
      return db.selectFrom('users').select('id').where('daily_quota', '>', minimum).where('last_name', '=', lastName).where('member_limit', '=', 5).orderBy('id').limit(2);
    });
    const ids = async (minimum: number, lastName: string) => (await quotaAbove(store.db, minimum, lastName)).rows.map((row) => row.id);
    expect(await ids(0, 'Test')).toEqual(['ann', 'bob']);
    expect(await ids(15, 'Test')).toEqual(['bob', 'cy']);
    expect(await ids(25, 'Test')).toEqual(['cy']);
    expect(await ids(0, 'Other')).toEqual([]);
    expect(builds).toBe(1);
  });

  it('runs inside a transaction', async () => {
    const find = prepared(1, (db, id: string) => db.selectFrom('users').select('daily_quota').where('id', '=', id));
    const quota = await store.db.transaction().execute(async (trx) => (await find(trx, 'bob')).rows[0]?.daily_quota);
    expect(Number(quota)).toBe(20);
  });

  it('passes an argument used twice to both places', async () => {
    const either = prepared(1, (db, name: string) =>
      db.selectFrom('users').select('id').where((eb) => eb.or([eb('id', '=', name), eb('first_name', '=', name)])),
    );
    expect((await either(store.db, 'cy')).rows).toEqual([{ id: 'cy' }]);
  });

  it.runIf(dialect === 'postgres')('runs as a named statement on PostgreSQL, parsed once per connection', async () => {
    const find = prepared(1, (db, id: string) => db.selectFrom('users').select('member_limit').where('id', '=', id));
    // One connection for both statements, so the second sees the first's session state.
    const [before, once, twice] = await store.db.connection().execute(async (connection) => {
      const prepared = async () => (await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(connection)).rows.map((row) => row.name);
      const beforeFirst = await prepared();
      await find(connection, 'ann');
      const afterFirst = await prepared();
      await find(connection, 'bob');
      return [beforeFirst, afterFirst, await prepared()];
    });
    const added = once.filter((name) => !before.includes(name));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^tolk_prepared_\d+$/);
    expect(twice).toEqual(once); // the second call reused the statement
  });

  it('refuses a builder that does not pass each argument to the SQL as a value', async () => {
    const unused = prepared(2, (db, id: string, _ignored: string) => db.selectFrom('users').select('id').where('id', '=', id));
    await expect(unused(store.db, 'ann', 'x')).rejects.toThrow(/did not reach the SQL/);
  });
});
