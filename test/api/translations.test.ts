import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServerWithUsers, type TestServer, type TestUser } from '../helpers/server.js';

const TRANSLATION_KEYS = ['createdAt', 'id', 'language', 'translation', 'translatorId', 'updatedAt'];
const notFoundBody = { statusCode: 404, code: 'ERR_NOT_FOUND', message: expect.any(String) };

describe.each(DIALECTS)('translations on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    ({ server, owner, stranger } = await startServerWithUsers(dialect));
  });
  afterAll(() => server?.close());

  /** A fresh entry in a project with base language en and translation languages de, pt-BR. */
  async function freshEntry(technicalName = 'saveButton') {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, technicalName, 'Save');
    return { project, group, entry };
  }
  const put = (entryId: string, body: unknown, options: { key?: string; ifMatch?: string } = {}) =>
    server.api('PUT', `/entries/${entryId}/translations`, {
      key: options.key ?? owner.apiKey,
      body,
      headers: options.ifMatch === undefined ? {} : { 'if-match': options.ifMatch },
    });
  const remove = (entryId: string, body: unknown, key = owner.apiKey) => server.api('DELETE', `/entries/${entryId}/translations`, { key, body });
  const rows = (entryId: string) =>
    server.store.db.selectFrom('translations').selectAll().where('entry_id', '=', entryId).orderBy('language').execute();
  const shown = async (entryId: string) => (await server.api('GET', `/entries/${entryId}`, { key: owner.apiKey })).body.translations;

  describe('PUT', () => {
    it('creates the translation: 200 Translation with the caller as translator and an ETag of its updatedAt', async () => {
      const { entry } = await freshEntry();
      const response = await put(entry.id, { language: 'de', translation: 'Speichern' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: expect.any(String),
        language: 'de',
        translation: 'Speichern',
        translatorId: owner.id,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        state: 'translated',
        outdated: false,
        reviewedBy: null,
        reviewedAt: null,
        reviewedText: null,
      });
      expect(new Date(response.body.createdAt).toISOString()).toBe(response.body.createdAt);
      expect(response.body.updatedAt).toBe(response.body.createdAt);
      expect(response.headers.get('etag')).toBe(`"${response.body.updatedAt}"`);
      expect(await shown(entry.id)).toEqual([response.body]);
      const stored = await rows(entry.id);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ id: response.body.id, language: 'de', translation: 'Speichern', translator_id: owner.id });
    });

    it('updates the same row on a second PUT: same id and createdAt, new text, later updatedAt, new ETag', async () => {
      const { entry } = await freshEntry();
      const first = await put(entry.id, { language: 'de', translation: 'Speichern' });
      const second = await put(entry.id, { language: 'de', translation: 'Sichern' });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ ...first.body, translation: 'Sichern', updatedAt: expect.any(String) });
      expect(second.body.updatedAt > first.body.updatedAt).toBe(true);
      expect(second.headers.get('etag')).toBe(`"${second.body.updatedAt}"`);
      expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'));

      const stored = await rows(entry.id);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ id: first.body.id, translation: 'Sichern', created_at: first.body.createdAt });
      expect(await shown(entry.id)).toEqual([second.body]);
    });

    it('gives every save a later updatedAt and a new ETag, even when the clock has not moved', async () => {
      const { entry } = await freshEntry();
      // The server runs in this process: a frozen Date makes both saves happen "in the same millisecond".
      vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-01T00:00:00.000Z') });
      try {
        const first = await put(entry.id, { language: 'de', translation: 'Eins' });
        const second = await put(entry.id, { language: 'de', translation: 'Zwei' });
        expect(first.body.updatedAt).toBe('2030-01-01T00:00:00.000Z');
        expect(second.body.updatedAt > first.body.updatedAt).toBe(true);
        expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'));
        const stale = await put(entry.id, { language: 'de', translation: 'Veraltet' }, { ifMatch: first.headers.get('etag')! });
        expect(stale.status).toBe(412);
      } finally {
        vi.useRealTimers();
      }
    });

    it('keeps one row per language: de and pt-BR are separate translations', async () => {
      const { entry } = await freshEntry();
      const de = await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
      const pt = await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', 'Salvar');
      expect(pt.id).not.toBe(de.id);
      expect((await rows(entry.id)).map((r) => [r.language, r.translation])).toEqual([['de', 'Speichern'], ['pt-BR', 'Salvar']]);
    });

    it('gives the translation to whoever saved it last', async () => {
      const translator = await server.user();
      const { project, entry } = await freshEntry();
      await addMember(server, project.id, translator.id, 'translator');
      const first = await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
      const response = await put(entry.id, { language: 'de', translation: 'Sichern' }, { key: translator.apiKey });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: first.id, translatorId: translator.id, translation: 'Sichern' });
    });

    it('accepts a translation of 10,000 code points (emoji count once)', async () => {
      const { entry } = await freshEntry();
      const text = '😀'.repeat(10_000);
      const response = await put(entry.id, { language: 'de', translation: text });
      expect(response.status).toBe(200);
      expect((await rows(entry.id))[0]?.translation).toBe(text);
    });

    it.each([
      ['the base language', 'en'],
      ['a known locale not in the project', 'fr'],
      ['an unknown locale', 'xx'],
      ['a wrongly cased locale', 'pt-br'],
      ['a region the project does not have', 'de-AT'],
      ['an empty language', ''],
    ])('refuses %s as language with 400 at /body/language and stores nothing', async (_label, language) => {
      const { entry } = await freshEntry();
      const response = await put(entry.id, { language, translation: 'Text' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, code: 'ERR_VALIDATION', message: expect.any(String) });
      expect(response.body.details.map((d: any) => d.path)).toContain('/body/language');
      expect(await rows(entry.id)).toEqual([]);
    });

    it.each([
      ['an empty translation', { language: 'de', translation: '' }, '/body/translation'],
      ['a translation of 10,001 characters', { language: 'de', translation: 'x'.repeat(10_001) }, '/body/translation'],
      ['a translation of 10,001 emoji', { language: 'de', translation: '😀'.repeat(10_001) }, '/body/translation'],
      ['the translation missing', { language: 'de' }, '/body/translation'],
      ['the language missing', { translation: 'Text' }, '/body/language'],
      ['a number as translation', { language: 'de', translation: 5 }, '/body/translation'],
      ['null as translation', { language: 'de', translation: null }, '/body/translation'],
      ['an array as language', { language: ['de'], translation: 'Text' }, '/body/language'],
      ['an unknown field', { language: 'de', translation: 'Text', translatorId: 'someoneElse' }, '/body/translatorId'],
    ])('refuses %s with 400 at the field and stores nothing', async (_label, body, path) => {
      const { entry } = await freshEntry();
      const response = await put(entry.id, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('ERR_VALIDATION');
      expect(response.body.details.map((d: any) => d.path)).toContain(path);
      expect(await rows(entry.id)).toEqual([]);
    });

    it('refuses a PUT without a body with 400', async () => {
      const { entry } = await freshEntry();
      const response = await server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('ERR_VALIDATION');
    });

    it('refuses a language removed from the project, and keeps the stored translation', async () => {
      const { project, entry } = await freshEntry();
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
      await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { translationLanguages: ['pt-BR'] } });
      const response = await put(entry.id, { language: 'de', translation: 'Sichern' });
      expect(response.status).toBe(400);
      expect((await rows(entry.id)).map((r) => r.translation)).toEqual(['Speichern']);
    });

    it('answers 404 ERR_NOT_FOUND for an unknown entry', async () => {
      const response = await put('doesnotexist', { language: 'de', translation: 'Text' });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFoundBody);
    });

    it('answers 404 ERR_NOT_FOUND to a stranger, whatever the language, and stores nothing', async () => {
      const { entry } = await freshEntry();
      for (const language of ['de', 'xx']) {
        const response = await put(entry.id, { language, translation: 'Fremd' }, { key: stranger.apiKey });
        expect(response.status, language).toBe(404);
        expect(response.body).toEqual(notFoundBody);
      }
      expect(await rows(entry.id)).toEqual([]);
    });
  });

  describe('If-Match', () => {
    it('saves with the current ETag, from the PUT answer or from the entry GET', async () => {
      const { entry } = await freshEntry();
      const first = await put(entry.id, { language: 'de', translation: 'Eins' });
      const second = await put(entry.id, { language: 'de', translation: 'Zwei' }, { ifMatch: first.headers.get('etag')! });
      expect(second.status).toBe(200);
      expect(second.body.translation).toBe('Zwei');
      const [read] = await shown(entry.id);
      const third = await put(entry.id, { language: 'de', translation: 'Drei' }, { ifMatch: `"${read.updatedAt}"` });
      expect(third.status).toBe(200);
      expect(third.body.translation).toBe('Drei');
      const listed = await put(entry.id, { language: 'de', translation: 'Vier' }, { ifMatch: `"1999-01-01T00:00:00.000Z", ${third.headers.get('etag')}` });
      expect(listed.status).toBe(200);
    });

    it('refuses a save made from an older ETag with 412 ERR_PRECONDITION_FAILED and keeps the stored text', async () => {
      const { entry } = await freshEntry();
      const first = await put(entry.id, { language: 'de', translation: 'Eins' });
      const second = await put(entry.id, { language: 'de', translation: 'Zwei' });
      const stale = await put(entry.id, { language: 'de', translation: 'Veraltet' }, { ifMatch: first.headers.get('etag')! });
      expect(stale.status).toBe(412);
      expect(stale.body).toEqual({ statusCode: 412, code: 'ERR_PRECONDITION_FAILED', message: expect.any(String) });
      expect(await shown(entry.id)).toEqual([second.body]);
      expect((await rows(entry.id)).map((r) => r.translation)).toEqual(['Zwei']);
    });

    it('refuses an unquoted or garbage If-Match with 412', async () => {
      const { entry } = await freshEntry();
      const first = await put(entry.id, { language: 'de', translation: 'Eins' });
      for (const ifMatch of [first.body.updatedAt, '"nonsense"']) {
        const response = await put(entry.id, { language: 'de', translation: 'Zwei' }, { ifMatch });
        expect(response.status, ifMatch).toBe(412);
      }
      expect((await rows(entry.id)).map((r) => r.translation)).toEqual(['Eins']);
    });

    it('answers If-Match: * with 412 when there is no translation yet, and saves when there is one', async () => {
      const { entry } = await freshEntry();
      const none = await put(entry.id, { language: 'de', translation: 'Eins' }, { ifMatch: '*' });
      expect(none.status).toBe(412);
      expect(none.body.code).toBe('ERR_PRECONDITION_FAILED');
      expect(await rows(entry.id)).toEqual([]);

      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Eins');
      const some = await put(entry.id, { language: 'de', translation: 'Zwei' }, { ifMatch: '*' });
      expect(some.status).toBe(200);
      expect(some.body.translation).toBe('Zwei');
      // * is per language: pt-BR has no translation yet.
      const other = await put(entry.id, { language: 'pt-BR', translation: 'Um' }, { ifMatch: '*' });
      expect(other.status).toBe(412);
    });

    it('answers 412 to any ETag when the translation was deleted meanwhile', async () => {
      const { entry } = await freshEntry();
      const first = await put(entry.id, { language: 'de', translation: 'Eins' });
      await remove(entry.id, { language: 'de' });
      const response = await put(entry.id, { language: 'de', translation: 'Zwei' }, { ifMatch: first.headers.get('etag')! });
      expect(response.status).toBe(412);
      expect(await rows(entry.id)).toEqual([]);
    });

    it('lets exactly one of several concurrent saves made from the same ETag through', async () => {
      const { entry } = await freshEntry();
      const first = await put(entry.id, { language: 'de', translation: 'Basis' });
      const etag = first.headers.get('etag')!;
      const texts = Array.from({ length: 10 }, (_, i) => `Gleichzeitig ${i}`);
      const responses = await Promise.all(texts.map((translation) => put(entry.id, { language: 'de', translation }, { ifMatch: etag })));
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, ...Array(9).fill(412)]);
      const winner = responses.find((r) => r.status === 200)!;
      expect((await rows(entry.id)).map((r) => r.translation)).toEqual([winner.body.translation]);
    });
  });

  describe('DELETE', () => {
    it('deletes the translation: 204 with an empty body, gone from the entry and the store', async () => {
      const { entry } = await freshEntry();
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
      const pt = await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', 'Salvar');
      const response = await remove(entry.id, { language: 'de' });
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(await shown(entry.id)).toEqual([pt]);
      expect((await rows(entry.id)).map((r) => r.language)).toEqual(['pt-BR']);
    });

    it('answers 204 for a valid language without a translation (idempotent)', async () => {
      const { entry } = await freshEntry();
      await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', 'Salvar');
      for (let i = 0; i < 2; i++) {
        const response = await remove(entry.id, { language: 'de' });
        expect(response.status).toBe(204);
        expect(response.text).toBe('');
      }
      expect((await rows(entry.id)).map((r) => r.language)).toEqual(['pt-BR']);
    });

    it.each([
      ['the base language', { language: 'en' }],
      ['a known locale not in the project', { language: 'fr' }],
      ['an unknown locale', { language: 'xx' }],
      ['an empty language', { language: '' }],
      ['the language missing', {}],
      ['an unknown field', { language: 'de', translation: 'x' }],
      ['a number as language', { language: 7 }],
    ])('refuses %s with 400', async (_label, body) => {
      const { entry } = await freshEntry();
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
      const response = await remove(entry.id, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, code: 'ERR_VALIDATION' });
      expect((await rows(entry.id)).map((r) => r.translation)).toEqual(['Speichern']);
    });

    it('refuses a DELETE without a body with 400', async () => {
      const { entry } = await freshEntry();
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
      const response = await server.api('DELETE', `/entries/${entry.id}/translations`, { key: owner.apiKey });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('ERR_VALIDATION');
      expect(await rows(entry.id)).toHaveLength(1);
    });

    it('answers 404 ERR_NOT_FOUND for an unknown entry and to a stranger, and keeps the translation', async () => {
      const { entry } = await freshEntry();
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
      const unknown = await remove('doesnotexist', { language: 'de' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFoundBody);
      const foreign = await remove(entry.id, { language: 'de' }, stranger.apiKey);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(notFoundBody);
      expect((await rows(entry.id)).map((r) => r.translation)).toEqual(['Speichern']);
    });
  });

  describe('roles and keys', () => {
    it('answers 401 ERR_UNAUTHORIZED to PUT and DELETE without a key, and changes nothing', async () => {
      const { entry } = await freshEntry();
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
      for (const [method, body] of [['PUT', { language: 'de', translation: 'Anonym' }], ['DELETE', { language: 'de' }]] as const) {
        const response = await server.api(method, `/entries/${entry.id}/translations`, { body });
        expect(response.status, method).toBe(401);
        expect(response.body).toEqual({ statusCode: 401, code: 'ERR_UNAUTHORIZED', message: expect.any(String) });
      }
      expect((await rows(entry.id)).map((r) => r.translation)).toEqual(['Speichern']);
    });

    it('lets a translator PUT and DELETE, and answers 403 ERR_FORBIDDEN to a viewer', async () => {
      const translator = await server.user();
      const viewer = await server.user();
      const { project, entry } = await freshEntry();
      await addMember(server, project.id, translator.id, 'translator');
      await addMember(server, project.id, viewer.id, 'viewer');

      const saved = await put(entry.id, { language: 'de', translation: 'Übersetzt' }, { key: translator.apiKey });
      expect(saved.status).toBe(200);
      expect(saved.body.translatorId).toBe(translator.id);
      for (const response of [
        await put(entry.id, { language: 'de', translation: 'Zuschauer' }, { key: viewer.apiKey }),
        await remove(entry.id, { language: 'de' }, viewer.apiKey),
      ]) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ statusCode: 403, code: 'ERR_FORBIDDEN', message: expect.any(String) });
      }
      expect((await rows(entry.id)).map((r) => r.translation)).toEqual(['Übersetzt']);
      expect((await remove(entry.id, { language: 'de' }, translator.apiKey)).status).toBe(204);
      expect(await rows(entry.id)).toEqual([]);
    });
  });

  describe('concurrency', () => {
    it('keeps one row when 20 PUTs for one (entry, language) race, holding the text of the last save', async () => {
      const { entry } = await freshEntry();
      const texts = Array.from({ length: 20 }, (_, i) => `Version ${i}`);
      const responses = await Promise.all(texts.map((translation) => put(entry.id, { language: 'de', translation })));
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));

      const stored = await rows(entry.id);
      expect(stored).toHaveLength(1);
      expect(texts).toContain(stored[0]!.translation);
      // Every save hit the same row, one after another, each with its own ETag; the store holds the last one.
      expect(new Set(responses.map((r) => r.body.id))).toEqual(new Set([stored[0]!.id]));
      expect(new Set(responses.map((r) => r.headers.get('etag'))).size).toBe(20);
      const last = responses.reduce((a, b) => (b.body.updatedAt > a.body.updatedAt ? b : a));
      expect(stored[0]).toMatchObject({ translation: last.body.translation, updated_at: last.body.updatedAt });
      expect(await shown(entry.id)).toEqual([last.body]);
    });

    it('keeps one row per language when PUTs for two languages race', async () => {
      const { entry } = await freshEntry();
      const requests = Array.from({ length: 10 }, (_, i) => put(entry.id, { language: i % 2 ? 'de' : 'pt-BR', translation: `Text ${i}` }));
      const responses = await Promise.all(requests);
      expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect((await rows(entry.id)).map((r) => r.language)).toEqual(['de', 'pt-BR']);
    });
  });
});
