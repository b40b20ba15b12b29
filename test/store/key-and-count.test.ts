/**
 * The key check and the quota count of a request in one statement (PostgreSQL): a live key's request
 * is counted up to the user's quota and no further; an unknown, revoked or expired key counts nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, hashSecret } from '../../src/domain/keys/api-keys.js';
import { sql } from 'kysely';
import { countRequest, findKeyAndCountRequest } from '../../src/store/repositories/usage.js';
import type { Store } from '../../src/store/open-store.js';
import { TEST_DATABASE_URL } from '../helpers/dialects.js';
import { openTestStore } from '../helpers/server.js';

const now = '2025-01-01T00:00:00.000Z';
const day = '2025-01-01';

describe.skipIf(!TEST_DATABASE_URL)('findKeyAndCountRequest on postgres', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await openTestStore('postgres'));
    const user = (id: string, quota: number) => ({
      id, email: `${id}@example.com`, email_key: `${id}@example.com`, first_name: id, last_name: 'Test',
      locale: 'en', timezone: 'UTC', daily_quota: quota, member_limit: 5, created_at: now,
    });
    await store.db.insertInto('users').values([user('ann', 3), user('bob', 0)]).execute();
  });
  afterAll(async () => {
    await store.close();
    await dispose();
  });

  const usage = async (userId: string) =>
    Number((await store.db.selectFrom('daily_usage').select('count').where('user_id', '=', userId).where('day', '=', day).executeTakeFirst())?.count ?? 0);

  it('finds the key and counts its user\'s requests up to the quota, then counts no more', async () => {
    const key = await createApiKey(store.db, 'ann', 'test');
    const counts = [];
    for (let i = 0; i < 5; i += 1) {
      const found = await findKeyAndCountRequest(store.db, hashSecret(key.apiKey), '2025-01-01T00:00:01.000Z', day);
      expect(found).toMatchObject({ keyId: key.id, userId: 'ann', dailyQuota: 3 });
      counts.push(found!.counted);
    }
    expect(counts).toEqual([1, 2, 3, null, null]);
    expect(await usage('ann')).toBe(3);
  });

  it('counts nothing for a user whose quota is 0, an unknown key, a revoked or an expired one', async () => {
    const zero = await createApiKey(store.db, 'bob', 'zero');
    expect((await findKeyAndCountRequest(store.db, hashSecret(zero.apiKey), now, day))?.counted).toBeNull();
    expect(await usage('bob')).toBe(0);
    expect(await findKeyAndCountRequest(store.db, hashSecret('tolk_unknown'), now, day)).toBeUndefined();
    const revoked = await createApiKey(store.db, 'bob', 'revoked');
    await store.db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', revoked.id).execute();
    expect(await findKeyAndCountRequest(store.db, hashSecret(revoked.apiKey), now, day)).toBeUndefined();
    const expired = await createApiKey(store.db, 'bob', 'expired', '2024-12-31T00:00:00.000Z');
    expect(await findKeyAndCountRequest(store.db, hashSecret(expired.apiKey), now, day)).toBeUndefined();
    expect(await usage('bob')).toBe(0);
  });
  it('commits a count without waiting for its flush, in that transaction only: nothing stays on the connection', async () => {
    const key = await createApiKey(store.db, 'ann', 'relaxed');
    const setting = async (db: typeof store.db) => (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]!.synchronous_commit;
    // One connection throughout, as a pooler in transaction mode could hand the next statement.
    await store.db.connection().execute(async (connection) => {
      expect(await setting(connection)).toBe('on');
      await connection.transaction().execute(async (trx) => {
        await findKeyAndCountRequest(trx, hashSecret(key.apiKey), now, '2025-01-02');
        expect(await setting(trx)).toBe('off');
      });
      expect(await setting(connection)).toBe('on');
      await connection.transaction().execute(async (trx) => {
        expect(await countRequest(trx, 'ann', '2025-01-03', 10)).toBe(1);
        expect(await setting(trx)).toBe('off');
      });
      // Outside a transaction each statement is its own: the next one is back to the default.
      await findKeyAndCountRequest(connection, hashSecret(key.apiKey), now, '2025-01-02');
      expect(await countRequest(connection, 'ann', '2025-01-03', 10)).toBe(2);
      expect(await setting(connection)).toBe('on');
    });
  });
});
