/**
 * Imports under faults, on both stores: a `tolk serve` killed (SIGKILL) while it writes an import
 * leaves the project exactly as it was before the import; two concurrent imports plus ordinary API
 * writes give no duplicates, no 5xx, and a result some serial order of them would give.
 */
import { statSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/domain/users/create-user.js';
import { sleep, startServerProcess, type ServerProcess } from '../helpers/access.js';
import { DIALECTS } from '../helpers/dialects.js';
import { checkIntegrity } from '../helpers/integrity.js';
import { openTestStore, startServer } from '../helpers/server.js';

const figures: string[] = [];
afterAll(() => console.log(`[import-faults] ${figures.join('; ')}`));

/** `count` entries in 10 groups, in the base language and `languages`. */
function largeBody(count: number, languages: string[]): Record<string, unknown> {
  const body: Record<string, Record<string, Record<string, string>>> = {};
  for (const language of ['en', ...languages]) {
    const tree: Record<string, Record<string, string>> = (body[language] = {});
    for (let i = 0; i < count; i += 1) (tree[`area${i % 10}`] ??= {})[`entry${i}`] = `${language} text ${i} {name}`;
  }
  return body;
}

/** Resolves once the server has begun writing the import's rows (its transaction is open and busy). */
async function writesStarted(dialect: string, url: string, schema: string | undefined, baseline: number): Promise<void> {
  if (dialect === 'sqlite') {
    const wal = `${url.slice('sqlite:'.length)}-wal`;
    const size = () => {
      try {
        return statSync(wal).size;
      } catch {
        return 0;
      }
    };
    for (let i = 0; i < 2000 && size() < baseline + 2 * 1024 * 1024; i += 1) await sleep(2);
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < 2000; i += 1) {
      const { rows } = await client.query(
        "select count(*)::int as n from pg_stat_activity where state = 'active' and query like 'insert into translations%' and pid <> pg_backend_pid()",
      );
      if (rows[0].n > 0) return;
      await sleep(2);
    }
  } finally {
    await client.end();
  }
  void schema;
}

describe.each(DIALECTS)('import faults on %s', (dialect) => {
  it('a server killed while it writes an import leaves the project as it was; the store stays sound', { timeout: 180_000 }, async () => {
    const { store, url, schema, dispose } = await openTestStore(dialect);
    let server: ServerProcess | undefined;
    try {
      const { apiKey } = await createUser(store.db, { email: `kill-${dialect}@example.com`, firstName: 'Kill', lastName: 'Test', dailyQuota: 1_000_000 });
      server = await startServerProcess(url);
      const call = async (baseUrl: string, method: string, path: string, body?: unknown) => {
        const response = await fetch(`${baseUrl}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: body === undefined ? null : JSON.stringify(body) });
        return { status: response.status, text: await response.text() };
      };
      const project = JSON.parse((await call(server.baseUrl, 'POST', '/projects', { name: 'Kill test', baseLanguage: 'en', translationLanguages: ['de', 'fr'] })).text) as { id: string };
      const seeded = await call(server.baseUrl, 'POST', `/projects/${project.id}/import?format=json`, { en: { home: { title: 'Home', subtitle: 'Sub' } }, de: { home: { title: 'Start' } } });
      expect(seeded.status, seeded.text).toBe(200);
      const before = (await call(server.baseUrl, 'GET', `/projects/${project.id}/export/json`)).text;

      const walBaseline = dialect === 'sqlite' ? statSync(`${url.slice('sqlite:'.length)}-wal`).size : 0;
      const body = JSON.stringify(largeBody(60_000, ['de', 'fr']));
      const answer = fetch(`${server.baseUrl}/projects/${project.id}/import?format=json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body,
      }).then((response) => response.status, (error: Error) => error);
      await writesStarted(dialect, url, schema, walBaseline);
      server.child.kill('SIGKILL');
      const outcome = await answer;
      // the kill came before any answer: the import was cut off mid-write
      expect(outcome, `the import answered ${String(outcome)} before the kill`).toBeInstanceOf(Error);

      server = await startServerProcess(url);
      const after = (await call(server.baseUrl, 'GET', `/projects/${project.id}/export/json`)).text;
      expect(after).toBe(before);
      expect(await checkIntegrity(store.db)).toEqual([]);
      // and the same import then runs to the end
      const again = await call(server.baseUrl, 'POST', `/projects/${project.id}/import?format=json`, JSON.parse(body));
      expect(again.status, again.text.slice(0, 300)).toBe(200);
      expect(JSON.parse(again.text).entries.created).toBe(60_000);
      figures.push(`${dialect}: killed mid-write, project unchanged, re-run imported 60,000 entries`);
    } finally {
      await server?.stop();
      await store.close();
      await dispose();
    }
  });

  it('two concurrent imports and API writes: no duplicates, no 5xx, the result of some serial order', { timeout: 120_000 }, async () => {
    const server = await startServer(dialect);
    try {
      const owner = await server.user({ dailyQuota: 1_000_000 });
      const project = (await server.api('POST', '/projects', { key: owner.apiKey, body: { name: 'Race test', baseLanguage: 'en', translationLanguages: ['de'] } })).body;
      const group = (await server.api('POST', `/projects/${project.id}/groups`, { key: owner.apiKey, body: { technicalName: 'manual', displayName: 'Manual' } })).body;
      const shared = (label: string) => Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`item${i}`, `${label} ${i}`]));
      const importOf = (label: string) => ({
        en: { shared: shared(label), [`only${label}`]: { text: `${label} only` } },
        de: { shared: shared(`${label}-de`) },
      });
      const statuses: number[] = [];
      const imports = ['A', 'B'].map((label) =>
        server.api('POST', `/projects/${project.id}/import?format=json&mode=overwrite`, { key: owner.apiKey, body: importOf(label) }).then((response) => {
          statuses.push(response.status);
          return response;
        }),
      );
      const writes = Array.from({ length: 30 }, (_, i) =>
        server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body: { technicalName: `manualEntry${i}`, baseTerm: `Manual ${i}` } }).then((response) => {
          statuses.push(response.status);
          return response;
        }),
      );
      const results = await Promise.all([...imports, ...writes]);
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
      for (const response of results) expect(response.status, response.text).toBe(200);

      const exported = (await server.api('GET', `/projects/${project.id}/export/json`, { key: owner.apiKey })).body;
      // a serial order: every shared text from one import, the one that ran last, in both languages
      const winner = exported.en.shared.item0.split(' ')[0];
      expect(['A', 'B']).toContain(winner);
      expect(exported.en.shared).toEqual(shared(winner));
      expect(exported.de.shared).toEqual(shared(`${winner}-de`));
      expect(exported.en.onlyA).toEqual({ text: 'A only' });
      expect(exported.en.onlyB).toEqual({ text: 'B only' });
      expect(Object.keys(exported.en.manual)).toHaveLength(30);
      // no duplicates: the store holds each (group, name) once, and as many entries as the export shows
      const groups = await server.store.db.selectFrom('groups').select(['technical_name', 'parent_id']).where('project_id', '=', project.id).execute();
      expect(groups.filter((row) => row.technical_name === 'shared')).toHaveLength(1);
      const entryCount = await server.store.db.selectFrom('entries').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', project.id).executeTakeFirstOrThrow();
      expect(Number(entryCount.n)).toBe(200 + 1 + 1 + 30);
      expect(await checkIntegrity(server.store.db)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
