/**
 * The embedded store keeps the results of every request's key check and access check until the
 * store file next changes (src/store/sqlite/reader-results.ts). Changes made by another process, or
 * by another connection of this one, must be seen by the very next request: a revoked key, a removed
 * member, a changed role. Expiry needs no write at all and must be seen too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateKey, listKeys, revokeKey } from '../../src/domain/keys/api-keys.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { openStore } from '../../src/store/open-store.js';
import { ReaderResults } from '../../src/store/sqlite/reader-results.js';
import { sqlitePath } from '../../src/store/sqlite/connect.js';
import { runCli } from '../helpers/cli.js';
import { addMember, createProjectWithGroup } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('kept key and access checks on sqlite', () => {
  let server: TestServer;
  let other: Database.Database;
  let owner: { id: string; apiKey: string };
  let projectId: string;

  beforeAll(async () => {
    server = await startServer('sqlite');
    // Another connection to the same file: what another process (the CLI, a second server) writes with.
    other = new Database(sqlitePath(server.databaseUrl));
    owner = await server.user();
    ({ project: { id: projectId } } = await createProjectWithGroup(server, owner.apiKey));
  });
  afterAll(async () => {
    other?.close();
    await server?.close();
  });

  const read = (key: string) => server.api('GET', `/projects/${projectId}`, { key });

  it("refuses a key revoked by this process's own writer in the same turn of the event loop", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tolk-kept-'));
    const store = await openStore(`sqlite:${join(dir, 'tolk.db')}`);
    try {
      const user = await createUser(store.db, { email: 'kept@example.com', firstName: 'K', lastName: 'Ept', dailyQuota: 10 });
      expect(await authenticateKey(store.db, user.apiKey)).not.toBeNull();
      await new Promise((resolve) => setImmediate(resolve));
      let turnEnded = false;
      setImmediate(() => (turnEnded = true));
      const principal = await authenticateKey(store.db, user.apiKey);
      expect(principal).not.toBeNull();
      const [key] = await listKeys(store.db, principal!);
      expect(await revokeKey(store.db, key!.id)).toBe(true);
      expect(await authenticateKey(store.db, user.apiKey)).toBeNull();
      expect(turnEnded, 'the reads ran in one turn, as this test means them to').toBe(false);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a key at once when another process revokes it', async () => {
    const keyOwner = await server.user();
    const keyId = (other.prepare('select id from api_keys where user_id = ?').get(keyOwner.id) as { id: string }).id;
    expect((await server.api('GET', '/projects', { key: keyOwner.apiKey })).status).toBe(200);
    expect((await server.api('GET', '/projects', { key: keyOwner.apiKey })).status).toBe(200);
    const revoked = await runCli(server.databaseUrl, ['keys', 'revoke', '--id', keyId]);
    expect(revoked.code).toBe(0);
    const after = await server.api('GET', '/projects', { key: keyOwner.apiKey });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('ERR_UNAUTHORIZED');
  });

  it('sees a member removed or its role changed by another connection on the next request', async () => {
    const member = await server.user();
    await addMember(server, projectId, member.id, 'viewer');
    expect((await read(member.apiKey)).body.capabilities.role).toBe('viewer');
    expect((await read(member.apiKey)).body.capabilities.role).toBe('viewer');
    other.prepare('update project_members set role = ? where project_id = ? and user_id = ?').run('editor', projectId, member.id);
    expect((await read(member.apiKey)).body.capabilities.role).toBe('editor');
    other.prepare('delete from project_members where project_id = ? and user_id = ?').run(projectId, member.id);
    expect((await read(member.apiKey)).status).toBe(404);
  });

  it('refuses a key once it has expired, with no write in between', async () => {
    const keyOwner = await server.user();
    const expiresAt = new Date(Date.now() + 1_500).toISOString();
    other.prepare('update api_keys set expires_at = ?, last_used_at = ? where user_id = ?').run(expiresAt, new Date().toISOString(), keyOwner.id);
    expect((await server.api('GET', '/projects', { key: keyOwner.apiKey })).status).toBe(200);
    expect((await server.api('GET', '/projects', { key: keyOwner.apiKey })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 50));
    expect((await server.api('GET', '/projects', { key: keyOwner.apiKey })).status).toBe(401);
  });
});

describe('ReaderResults', () => {
  const rows = (value: string) => ({ rows: [{ value }] });

  it('answers from the kept result while the version stays, and asks the store again once it changes', () => {
    let version = 1;
    let calls = 0;
    const results = new ReaderResults(() => version);
    const run = () => rows(`read ${++calls}`);
    expect(results.read('select', ['a'], run).rows).toEqual([{ value: 'read 1' }]);
    expect(results.read('select', ['a'], run).rows).toEqual([{ value: 'read 1' }]);
    expect(results.read('select', ['b'], run).rows).toEqual([{ value: 'read 2' }]);
    version = 2;
    expect(results.read('select', ['a'], run).rows).toEqual([{ value: 'read 3' }]);
    expect(calls).toBe(3);
  });

  it('gives each caller rows of its own: a field one sets is not seen by the next', () => {
    const results = new ReaderResults(() => 1);
    const first = results.read('select', [], () => rows('kept'));
    (first.rows[0] as { value: string }).value = 'changed by a caller';
    const second = results.read<{ value: string }>('select', [], () => rows('read again'));
    expect(second.rows[0]!.value).toBe('kept');
    second.rows[0]!.value = 'changed again';
    expect(results.read<{ value: string }>('select', [], () => rows('read again')).rows[0]!.value).toBe('kept');
  });

  it('keeps a parameter list apart from another that joins to the same text', () => {
    const results = new ReaderResults(() => 1);
    results.read('select', ['a', 'b'], () => rows('two'));
    expect(results.read('select', ['a\u0000b'], () => rows('one')).rows).toEqual([{ value: 'one' }]);
  });
});
