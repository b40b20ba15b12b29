/**
 * Large exports are read a batch of entries at a time inside one read transaction and spooled
 * (memory, then temporary files) language by language: the files exist while the export is being
 * sent and are gone after it, however it ends; and every batch comes from the same snapshot.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untar } from '../helpers/consumers.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

// This file's own temporary directory (each test file runs in a process of its own): what is in it is
// this file's exports' spools, and nothing else's.
const spoolRoot = mkdtempSync(join(tmpdir(), 'tolk-spool-test-'));
process.env['TMPDIR'] = spoolRoot;
const spoolDirectories = () => readdirSync(spoolRoot).filter((name) => name.startsWith('tolk-export-'));

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 5000; waited += 50) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never happened: ${what}`);
}

/** 1,500 entries of ~2.5 kB in three languages: ~11 MB of text, more than an export keeps in memory (4 MiB) and more than a kept export (8 MB), so every download is read and spooled anew. */
const ENTRIES = 1500;
const textOf = (language: string, i: number) => `${language} ${i}: ${'Lorem ipsum dolor sit amet, '.repeat(90)}`;
const languageTree = (language: string) => ({ bulk: Object.fromEntries(Array.from({ length: ENTRIES }, (_, i) => [`entry${i}`, textOf(language, i)])) });

describe.each(DIALECTS)('spooled exports on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let projectId: string;

  const download = (format: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}/projects/${projectId}/export/${format}`, { ...init, headers: { authorization: `Bearer ${key}` } });
  const importJson = (id: string, body: object, query = '') =>
    server.api('POST', `/projects/${id}/import?format=json${query}`, { key, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  beforeAll(async () => {
    server = await startServer(dialect);
    key = (await server.user({ dailyQuota: 100_000 })).apiKey;
    projectId = (await createProject(server, key, { baseLanguage: 'en', translationLanguages: ['de', 'fr'] })).id;
    const imported = await importJson(projectId, { en: languageTree('en'), de: languageTree('de'), fr: languageTree('fr') });
    expect(imported.status, imported.text.slice(0, 300)).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(['json', 'vue-i18n', 'i18next', 'flutter'])('%s: spools to files while it is sent, gives every text, and removes them after', async (format) => {
    const response = await download(format);
    expect(response.status).toBe(200);
    // The headers are sent once the whole project has been read: its spools are on disk by then.
    expect(spoolDirectories()).toHaveLength(1);
    const bytes = Buffer.from(await response.arrayBuffer());
    await eventually(() => spoolDirectories().length === 0, 'the spool directory removed');
    if (format === 'json') {
      const document = JSON.parse(bytes.toString('utf8'));
      for (const language of ['en', 'de', 'fr']) {
        expect(Object.keys(document[language].bulk)).toHaveLength(ENTRIES);
        expect(document[language].bulk.entry1234).toBe(textOf(language, 1234));
      }
    } else if (format === 'vue-i18n') {
      expect(JSON.parse(bytes.toString('utf8')).fr['bulk.entry999']).toBe(textOf('fr', 999));
    } else {
      const files = await untar(bytes);
      const name = format === 'i18next' ? 'de/translation.json' : 'app_de.arb';
      const document = JSON.parse(files.get(name)!);
      expect(format === 'i18next' ? document.bulk.entry7 : document.bulkEntry7).toBe(textOf('de', 7));
    }
  });

  it('removes the spools of a download its client abandons', async () => {
    const controller = new AbortController();
    const response = await download('json', { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    expect(spoolDirectories()).toHaveLength(1);
    controller.abort();
    await reader.read().catch(() => undefined);
    await eventually(() => spoolDirectories().length === 0, 'the abandoned spool directory removed');
    // and the server keeps serving
    expect((await download('vue-i18n')).status).toBe(200);
  });

  it('reads every batch from one snapshot while imports rewrite every text', async () => {
    // 5,000 entries: three batches of the walk, each a query of its own.
    const many = 5000;
    const id = (await createProject(server, key, { baseLanguage: 'en', translationLanguages: [] })).id;
    const generation = (n: number) => ({ en: { bulk: Object.fromEntries(Array.from({ length: many }, (_, i) => [`entry${i}`, `generation ${n}`])) } });
    expect((await importJson(id, generation(0))).status).toBe(200);
    let writing = true;
    const imports = (async () => {
      for (let n = 1; writing && n < 100; n += 1) expect((await importJson(id, generation(n), '&mode=overwrite')).status).toBe(200);
    })();
    const seen = new Set<string>();
    try {
      // Until the exports have seen two generations (each import takes its time, more on PostgreSQL).
      const until = Date.now() + 40_000;
      while (seen.size < 2 && Date.now() < until) {
        const response = await fetch(`${server.baseUrl}/projects/${id}/export/json`, { headers: { authorization: `Bearer ${key}` } });
        const texts = new Set(Object.values(JSON.parse(await response.text()).en.bulk as Record<string, string>));
        expect([...texts]).toHaveLength(1); // one generation in every batch
        seen.add([...texts][0]!);
      }
    } finally {
      writing = false;
      await imports;
    }
    // The exports did run while the imports changed the texts (else the check above proved nothing).
    expect(seen.size).toBe(2);
  }, 60_000);
});

describe.each(DIALECTS.filter((dialect) => dialect === 'postgres'))('exports under a collation that orders names otherwise than JavaScript, on %s', (dialect) => {
  let server: TestServer;
  afterAll(async () => {
    await server?.close();
  });

  it('writes every entry: what an index range of the batch missed is read again by id', async () => {
    server = await startServer(dialect);
    // A database made with a linguistic default collation (en_US.UTF-8 and the like): `Zeta` sorts
    // after `beta` there, before `alpha` in JavaScript (the export's order), so the batch's range
    // from `Zeta` to `beta` holds nothing.
    await sql`alter table entries alter column technical_name type text collate "en-x-icu"`.execute(server.store.db);
    const key = (await server.user()).apiKey;
    const id = (await createProject(server, key, { baseLanguage: 'en', translationLanguages: ['de'], keyStyle: 'free' })).id;
    const names = ['Zeta', 'alpha', 'beta', 'under_score', 'underscore'];
    const tree = (language: string) => ({ bulk: Object.fromEntries(names.map((name) => [name, `${language} ${name}`])) });
    const imported = await server.api('POST', `/projects/${id}/import?format=json`, { key, rawBody: JSON.stringify({ en: tree('en'), de: tree('de') }), headers: { 'content-type': 'application/json' } });
    expect(imported.status, imported.text).toBe(200);
    const response = await fetch(`${server.baseUrl}/projects/${id}/export/json`, { headers: { authorization: `Bearer ${key}` } });
    expect(JSON.parse(await response.text())).toEqual({ en: tree('en'), de: tree('de') });
    expect(Object.keys(JSON.parse(await (await fetch(`${server.baseUrl}/projects/${id}/export/vue-i18n`, { headers: { authorization: `Bearer ${key}` } })).text()).de)).toEqual(names.map((name) => `bulk.${name}`));
  });
});

afterAll(() => rmSync(spoolRoot, { recursive: true, force: true }));
