/**
 * Entry reads are kept in memory per project content version: a second server process writing to
 * the same store must never leave the first serving an old read, and a kept read never skips the
 * access check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addConfirmedMember, startServerProcess, type ServerProcess } from '../helpers/access.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe.each(DIALECTS)('kept entry reads on %s', (dialect) => {
  let reader: TestServer;
  let writer: ServerProcess;
  beforeAll(async () => {
    reader = await startServer(dialect);
    writer = await startServerProcess(reader.databaseUrl);
  });
  afterAll(async () => {
    await writer.stop();
    await reader.close();
  });

  /** Calls the writer process's API. */
  const write = async (key: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${writer.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
  };

  it('shows every write made through another process at the next read', async () => {
    const owner = await reader.user();
    const { project, group } = await createProjectWithGroup(reader, owner.apiKey);
    const entry = await createEntry(reader, owner.apiKey, group.id, 'greeting', 'Hello');
    const readEntry = async () => (await reader.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body;
    const readPage = async () => (await reader.api('GET', `/groups/${group.id}/entries?limit=10`, { key: owner.apiKey })).body;

    expect((await readEntry()).translations).toEqual([]);
    expect((await readPage()).total).toBe(1);
    await write(owner.apiKey, 'PUT', `/entries/${entry.id}/translations`, { language: 'de', translation: 'Hallo' });
    expect((await readEntry()).translations.map((t: { translation: string }) => t.translation)).toEqual(['Hallo']);
    await write(owner.apiKey, 'PATCH', `/entries/${entry.id}`, { baseTerm: 'Hi' });
    expect((await readEntry()).baseTerm).toBe('Hi');
    expect((await readPage()).result[0].baseTerm).toBe('Hi');
    await write(owner.apiKey, 'POST', `/groups/${group.id}/entries`, { technicalName: 'farewell', baseTerm: 'Bye' });
    expect((await readPage()).total).toBe(2);
    const untranslated = async () => (await reader.api('GET', `/projects/${project.id}/entries/untranslated?languageCode=pt-BR`, { key: owner.apiKey })).body;
    expect((await untranslated()).total).toBe(2);
    await write(owner.apiKey, 'PUT', `/entries/${entry.id}/translations`, { language: 'pt-BR', translation: 'Oi' });
    expect((await untranslated()).result.map((item: { technicalName: string }) => item.technicalName)).toEqual(['farewell']);
    expect((await untranslated()).total).toBe(1);
    await write(owner.apiKey, 'DELETE', `/entries/${entry.id}`);
    expect((await reader.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).status).toBe(404);
    expect((await readPage()).total).toBe(1);
  });

  it('serves a kept export only while its version is current', async () => {
    const owner = await reader.user();
    const { project, group } = await createProjectWithGroup(reader, owner.apiKey);
    await createEntry(reader, owner.apiKey, group.id, 'title', 'Shop');
    const exported = async () => {
      const response = await fetch(`${reader.baseUrl}/projects/${project.id}/export/json`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
      expect(response.status).toBe(200);
      return { etag: response.headers.get('etag'), json: (await response.json()) as Record<string, Record<string, Record<string, string>>> };
    };
    const first = await exported();
    expect(await exported()).toEqual(first);
    await write(owner.apiKey, 'PATCH', `/projects/${project.id}`, { translationLanguages: ['de'] });
    const second = await exported();
    expect(second.etag).not.toBe(first.etag);
    expect(Object.keys(second.json)).toEqual(['en', 'de']);
    await write(owner.apiKey, 'POST', `/groups/${group.id}/entries`, { technicalName: 'cart', baseTerm: 'Cart' });
    expect((await exported()).json.de?.[group.technicalName]).toEqual({ cart: 'Cart', title: 'Shop' });
  });

  it('answers a kept read with the bytes its schema gives, the same each time until a write', async () => {
    const owner = await reader.user();
    const { group } = await createProjectWithGroup(reader, owner.apiKey);
    const entry = await createEntry(reader, owner.apiKey, group.id, 'greeting', 'Grüße 👋 {name}');
    await setTranslation(reader, owner.apiKey, entry.id, 'de', 'Grüß dich, {name} ✓');
    const raw = async (method: string, path: string) => {
      const response = await fetch(`${reader.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${owner.apiKey}` } });
      expect(response.status, `${method} ${path}`).toBe(200);
      return { type: response.headers.get('content-type'), length: response.headers.get('content-length'), bytes: Buffer.from(await response.arrayBuffer()) };
    };
    for (const path of [`/entries/${entry.id}`, `/groups/${group.id}/entries?limit=10&withTranslations=true`]) {
      const first = await raw('GET', path);
      const again = await raw('GET', path);
      expect(first.type).toBe('application/json; charset=utf-8');
      // Content-Length counts UTF-8 bytes, not UTF-16 units: the emoji and umlauts would differ.
      expect(Number(first.length)).toBe(first.bytes.length);
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(first.bytes.toString('utf8')).toContain('"Grüße 👋 {name}"');
      expect(first.bytes.toString('utf8')).toContain('"Grüß dich, {name} ✓"');
      const head = await raw('HEAD', path);
      expect(head.bytes.length).toBe(0);
      expect(head.length).toBe(first.length);
    }
    await write(owner.apiKey, 'PUT', `/entries/${entry.id}/translations`, { language: 'de', translation: 'Servus, {name}' });
    const changed = await raw('GET', `/entries/${entry.id}`);
    expect(changed.bytes.toString('utf8')).toContain('Servus, {name}');
    expect(changed.bytes.toString('utf8')).not.toContain('Grüß dich');
  });

  it('keeps a page and an entry through saves to other entries, and reads them again after a save to one they show', async () => {
    const owner = await reader.user();
    const { group } = await createProjectWithGroup(reader, owner.apiKey);
    const [alpha, beta, gamma] = [await createEntry(reader, owner.apiKey, group.id, 'alpha', 'A'), await createEntry(reader, owner.apiKey, group.id, 'beta', 'B'), await createEntry(reader, owner.apiKey, group.id, 'gamma', 'C')];
    const page = async () => (await reader.api('GET', `/groups/${group.id}/entries?limit=2&withTranslations=true`, { key: owner.apiKey })).body;
    const search = async () => (await reader.api('GET', `/groups/${group.id}/entries?limit=2&search=a`, { key: owner.apiKey })).body;
    const entry = async () => (await reader.api('GET', `/entries/${alpha.id}`, { key: owner.apiKey })).body;
    const baseTerms = (body: { result: { baseTerm: string }[] }) => body.result.map((item) => item.baseTerm);
    expect(baseTerms(await page())).toEqual(['A', 'B']);
    expect(baseTerms(await search())).toEqual(['A', 'B']);
    expect((await entry()).baseTerm).toBe('A');
    // Behind every server's back (no new version, nothing logged): what a kept read still shows, and a fresh read does not.
    await reader.store.db.updateTable('entries').set({ base_term: 'A (unseen)', base_term_key: 'a (unseen)' }).where('id', '=', alpha.id).execute();

    // A save to gamma, shown by neither the page nor the entry: both stay as kept.
    await write(owner.apiKey, 'PUT', `/entries/${gamma.id}/translations`, { language: 'de', translation: 'C-de' });
    expect(baseTerms(await page())).toEqual(['A', 'B']);
    expect((await entry()).baseTerm).toBe('A');
    // A search depends on every entry's base term: it is read again.
    expect(baseTerms(await search())).toEqual(['A (unseen)', 'B']);

    // A save to beta, which the page shows (not the entry): the page is read again, with beta's new translation.
    await write(owner.apiKey, 'PUT', `/entries/${beta.id}/translations`, { language: 'de', translation: 'B-de' });
    const again = await page();
    expect(baseTerms(again)).toEqual(['A (unseen)', 'B']);
    expect(again.result[1].translations.map((t: { translation: string }) => t.translation)).toEqual(['B-de']);
    expect((await entry()).baseTerm).toBe('A');

    // Any other kind of write (a new entry) and everything is read again.
    await write(owner.apiKey, 'POST', `/groups/${group.id}/entries`, { technicalName: 'delta', baseTerm: 'D' });
    expect((await entry()).baseTerm).toBe('A (unseen)');
    expect((await page()).total).toBe(4);
  });

  it('answers a kept page of a group deleted through another process as not found', async () => {
    const owner = await reader.user();
    const { group } = await createProjectWithGroup(reader, owner.apiKey);
    await createEntry(reader, owner.apiKey, group.id, 'greeting', 'Hello');
    const readPage = () => reader.api('GET', `/groups/${group.id}/entries?limit=10`, { key: owner.apiKey });
    expect((await readPage()).body.total).toBe(1);
    expect((await readPage()).body.total).toBe(1);
    await write(owner.apiKey, 'DELETE', `/groups/${group.id}`);
    const after = await readPage();
    expect(after.status).toBe(404);
    expect(after.body).toMatchObject({ code: 'ERR_NOT_FOUND', message: 'group not found' });
  });

  it('checks access on every read, kept or not', async () => {
    const owner = await reader.user();
    const member = await reader.user();
    const { project, group } = await createProjectWithGroup(reader, owner.apiKey);
    const entry = await createEntry(reader, owner.apiKey, group.id, 'secret');
    await setTranslation(reader, owner.apiKey, entry.id, 'de', 'Geheim');
    await addConfirmedMember(reader, owner.apiKey, project.id, member, 'viewer');
    expect((await reader.api('GET', `/entries/${entry.id}`, { key: member.apiKey })).status).toBe(200);
    expect((await reader.api('GET', `/groups/${group.id}/entries`, { key: member.apiKey })).status).toBe(200);

    // Removing a member changes no content (the version stays): the kept reads must still be refused.
    await write(owner.apiKey, 'DELETE', `/projects/${project.id}/members/${member.id}`);
    expect((await reader.api('GET', `/entries/${entry.id}`, { key: member.apiKey })).status).toBe(404);
    expect((await reader.api('GET', `/groups/${group.id}/entries`, { key: member.apiKey })).status).toBe(404);
  });
});
