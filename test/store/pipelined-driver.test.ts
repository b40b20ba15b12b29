/**
 * PostgreSQL's pipelined driver (src/store/postgres/pipelined-driver.ts): a write's read goes out with
 * the bump that takes the project's lock, yet sees what the lock waited for; a bound transaction's
 * prepared statements skip Kysely's executor, and its binding does not outlive it; BEGIN, answered with
 * the first statement, leaves no transaction open behind a failure.
 */
import pg from 'pg';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/domain/shared/transaction.js';
import { prepared } from '../../src/store/prepared.js';
import { TEST_DATABASE_URL } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';
import { settledWithin } from '../helpers/settled.js';

const selectOne = prepared(1, (_db, value: number) => sql<{ one: number }>`select cast(${value} as integer) as one`);

describe.skipIf(!TEST_DATABASE_URL)('the pipelined PostgreSQL driver', () => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer('postgres');
    owner = await server.user();
  });
  afterAll(() => server?.close());

  it("reads a save's stored translation after the lock it waited for, so a stale If-Match is refused", async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'heldEntry');
    const first = await server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de', translation: 'Erst' } });
    expect(first.status, first.text).toBe(200);
    const etag = `"${first.body.updatedAt}"`;

    // Another connection holds the project's lock (the bump every write starts with) and changes the text.
    const holder = new pg.Client({ connectionString: server.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('update projects set content_version = content_version + 1 where id = $1', [project.id]);
      await holder.query(`update translations set translation = 'Gehalten', updated_at = '2999-01-01T00:00:00.000Z' where entry_id = $1 and language = 'de'`, [entry.id]);

      // The save's bump waits for that lock; its read went out with it.
      const save = server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de', translation: 'Zweit' }, headers: { 'if-match': etag } });
      expect(await settledWithin(save, 300)).toBe('pending');
      await holder.query('commit');

      // Read before the lock, the save would have matched the old ETag and overwritten the held text unseen.
      const saved = await save;
      expect(saved.status, saved.text).toBe(412);
    } finally {
      await holder.end();
    }
    const read = await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey });
    expect(read.body.translations.find((t: { language: string }) => t.language === 'de').translation).toBe('Gehalten');
  });

  it("runs a bound transaction's prepared statements without Kysely's executor, and not once it has ended", async () => {
    let throughKysely = 0;
    const counting: KyselyPlugin = {
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        throughKysely += 1;
        return result;
      },
    };
    const db = server.store.db.withPlugin(counting);
    let ended: Parameters<Parameters<typeof inTransaction>[1]>[0] | undefined;
    const ones = await inTransaction(db, async (trx) => {
      ended = trx;
      return [(await selectOne(trx, 1)).rows[0]?.one, (await selectOne(trx, 2)).rows[0]?.one, (await selectOne(trx, 3)).rows[0]?.one];
    });
    expect(ones).toEqual([1, 2, 3]);
    // the binding's one pass; the three statements went straight to the connection
    expect(throughKysely).toBe(1);
    // after its commit the transaction's object goes Kysely's way, which refuses it: its connection is back in the pool
    await expect(selectOne(ended!, 4)).rejects.toThrow(/committed/);
  });

  it("leaves no transaction open when the statement awaited with BEGIN's answer fails, nor when the transaction is rolled back", async () => {
    const failing = inTransaction(server.store.db, async (trx) => {
      await sql`select * from no_such_table`.execute(trx);
    });
    await expect(failing).rejects.toThrow(/no_such_table/);
    // the pool's connections are all usable: none is left in an aborted transaction
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => inTransaction(server.store.db, async (trx) => (await selectOne(trx, i)).rows[0]?.one)));
    expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

    await expect(
      inTransaction(server.store.db, async (trx) => {
        await sql`create table rolled_back (id integer)`.execute(trx);
        expect((await sql<{ found: string | null }>`select to_regclass('rolled_back')::text as found`.execute(trx)).rows[0]?.found).toBe('rolled_back');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const left = await sql<{ found: string | null }>`select to_regclass('rolled_back')::text as found`.execute(server.store.db);
    expect(left.rows[0]?.found).toBeNull();
  });
});
