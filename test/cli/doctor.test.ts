/**
 * `tolk doctor`: a store built through the API passes; each corruption made behind the API's back
 * (raw SQL) is found and named, and the store passes again once it is repaired; the doctor
 * changes nothing, not even an out-of-date schema.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrityReport } from '../../src/domain/integrity/inspect-store.js';
import { addConfirmedMember } from '../helpers/access.js';
import { runCli } from '../helpers/cli.js';
import { DIALECTS, TEST_DATABASE_URL } from '../helpers/dialects.js';
import { createEntry, createGroup, createGroupChain, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { corruptions, type DoctorWorld, type Expected } from './doctor-corruptions.js';

/** Runs `tolk doctor` on the URL; its exit code, its one-line stderr, and the parsed report. */
async function doctor(databaseUrl: string) {
  const result = await runCli(databaseUrl, ['doctor']);
  const report = result.stdout === '' ? undefined : (JSON.parse(result.stdout) as IntegrityReport);
  return { ...result, report };
}

/** Each expected problem is reported, and nothing else. */
function expectProblems(report: IntegrityReport | undefined, expected: Expected[]): void {
  const problems = report?.problems ?? [];
  const lines = problems.map((found) => `${found.check}: ${found.message}`);
  for (const [check, ...mentions] of expected) {
    const match = problems.some((found) => found.check === check && mentions.every((text) => found.message.includes(text)));
    expect(match, `no ${check} problem naming ${mentions.join(', ')} in:\n${lines.join('\n')}`).toBe(true);
  }
  expect(lines, 'problems beyond the expected ones').toHaveLength(expected.length);
}

describe.each(DIALECTS)('tolk doctor on %s', (dialect) => {
  let server: TestServer;
  let world: DoctorWorld;

  beforeAll(async () => {
    server = await startServer(dialect);
    const owner = await server.user();
    const member = await server.user();
    const key = owner.apiKey;
    const project = await createProject(server, key, { translationLanguages: ['de', 'fr', 'pt-BR'] });
    const auth = await createGroup(server, key, project.id, 'auth');
    const login = await createGroup(server, key, project.id, 'login', auth.id);
    const chain = await createGroupChain(server, key, project.id, 10);
    const submit = await createEntry(server, key, login.id, 'submit', 'Sign In');
    // Allowed, though they look odd: names that differ only in case, and a translation in a
    // language the project no longer lists (removing a language hides its translations, keeps them).
    await createEntry(server, key, login.id, 'subMit', 'Sign in now');
    await createEntry(server, key, auth.id, 'title', 'Welcome');
    await setTranslation(server, key, submit.id, 'de', 'Anmelden');
    await setTranslation(server, key, submit.id, 'fr', 'Se connecter');
    const patched = await server.api('PATCH', `/projects/${project.id}`, { key, body: { translationLanguages: ['de', 'pt-BR'] } });
    expect(patched.status, patched.text).toBe(200);
    await addConfirmedMember(server, key, project.id, member, 'admin');
    world = {
      projectId: project.id, ownerId: owner.id, memberId: member.id, authId: auth.id, loginId: login.id,
      deepestId: chain.at(-1).id, submitId: submit.id,
    };
  });
  afterAll(() => server?.close());

  it('passes a store built through the API: exit 0, counts of what it checked, no problems', async () => {
    const result = await doctor(server.databaseUrl);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.report).toEqual({
      ok: true,
      checked: { users: 2, apiKeys: 2, projects: 1, members: 1, groups: 12, entries: 3, translations: 2 },
      problems: [],
    });
  });

  for (const corruption of corruptions(dialect)) {
    it.skipIf(corruption.only !== undefined && corruption.only !== dialect)(`finds ${corruption.label}: exit 1, each problem named`, async () => {
      await corruption.corrupt(server.store.db, world);
      try {
        const result = await doctor(server.databaseUrl);
        expect(result.code, result.stderr).toBe(1);
        expect(result.report?.ok).toBe(false);
        const expected = corruption.expected(world);
        expectProblems(result.report, expected);
        expect(result.stderr).toBe(`tolk doctor: ${expected.length} problem${expected.length === 1 ? '' : 's'} found\n`);
      } finally {
        await corruption.repair(server.store.db, world);
      }
    });
  }

  it('passes the store again once every corruption is repaired', async () => {
    const result = await doctor(server.databaseUrl);
    expect(result.code, result.stdout).toBe(0);
    expect(result.report?.problems).toEqual([]);
  });

  it.runIf(dialect === 'sqlite')('leaves the SQLite file and its log byte for byte as they were, even with problems to report', async () => {
    await corruptions(dialect)[0]!.corrupt(server.store.db, world);
    try {
      const path = server.databaseUrl.slice('sqlite:'.length);
      const fingerprint = () => [path, `${path}-wal`].map((file) => (existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : 'absent'));
      const before = fingerprint();
      expect((await doctor(server.databaseUrl)).code).toBe(1);
      expect(fingerprint()).toEqual(before);
    } finally {
      await corruptions(dialect)[0]!.repair(server.store.db, world);
    }
  });

  it('refuses a store that is missing or not migrated, and creates or migrates nothing', async () => {
    const empty = await emptyStore(dialect);
    try {
      const result = await doctor(empty.url);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^tolk: the store's schema is not up to date \(pending: 001-initial, .*\n$/);
      expect(await empty.tables()).toEqual([]);
    } finally {
      await empty.dispose();
    }
    if (dialect === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'tolk-doctor-'));
      const missing = await doctor(`sqlite:${join(dir, 'none.db')}`);
      expect([missing.code, missing.stdout, missing.stderr]).toEqual([1, '', `tolk: no store at ${join(dir, 'none.db')}\n`]);
      expect(existsSync(join(dir, 'none.db'))).toBe(false);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A store with no tables at all: an empty SQLite file, or an empty PostgreSQL schema. */
async function emptyStore(dialect: 'sqlite' | 'postgres') {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tolk-doctor-'));
    const path = join(dir, 'empty.db');
    new SQLite(path).close();
    const tables = async () => {
      const database = new SQLite(path, { readonly: true });
      const names = database.prepare('select name from sqlite_master').all();
      database.close();
      return names;
    };
    return { url: `sqlite:${path}`, tables, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `tolk_doctor_${randomBytes(6).toString('hex')}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  await admin((client) => client.query(`create schema ${schema}`));
  const tables = () => admin(async (client) => (await client.query('select table_name from information_schema.tables where table_schema = $1', [schema])).rows);
  const url = `${TEST_DATABASE_URL}${TEST_DATABASE_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return { url, tables, dispose: () => admin((client) => client.query(`drop schema if exists ${schema} cascade`)).then(() => {}) };
}
