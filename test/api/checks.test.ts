/**
 * GET /projects/{id}/checks (CONTRACT, "Checks"): placeholders, plural-forms and not-native problems of
 * a project's messages, paged and filtered, read with canReadEntries, counted like any read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServerWithUsers, type TestServer, type TestUser } from '../helpers/server.js';

describe.each(DIALECTS)('checks on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;
  let projectId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ server, owner, stranger } = await startServerWithUsers(dialect));
    const { project, group } = await createProjectWithGroup(server, owner.apiKey, 'shop', { baseLanguage: 'en', translationLanguages: ['ru', 'lv', 'ja'] });
    projectId = project.id;
    const entry = async (name: string, baseTerm: string) => (ids[name] = (await createEntry(server, owner.apiKey, group.id, name, baseTerm)).id);
    await entry('fileCount', '{count, plural, one {# file} other {# files}}');
    await entry('greeting', 'Hello {name}');
    await entry('fewCount', '{n, plural, one {#} few {# few} other {#}}');
    await entry('plainTitle', 'Title');
    await entry('genderText', '{g, select, female {She} other {They}}');
    await setTranslation(server, owner.apiKey, ids['fileCount']!, 'ru', '{count, plural, one {# файл} other {# файлов}}');
    await setTranslation(server, owner.apiKey, ids['greeting']!, 'ru', 'Привет {user}');
    await setTranslation(server, owner.apiKey, ids['greeting']!, 'ja', 'こんにちは');
    await setTranslation(server, owner.apiKey, ids['fileCount']!, 'ja', '{count, plural, other {#個}}');
    await setTranslation(server, owner.apiKey, ids['plainTitle']!, 'ru', 'Заголовок');
  });
  afterAll(() => server?.close());

  const checks = (query = '', key = owner.apiKey) => server.api('GET', `/projects/${projectId}/checks${query}`, { key });
  const keyOf = (item: any) => `${item.key} ${item.language} ${item.check}`;

  it('finds a Russian plural lacking few and many, and an English plural with a category English never uses', async () => {
    const response = await checks('?check=plural-forms');
    expect(response.status, response.text).toBe(200);
    const found = response.body.result.map(keyOf);
    expect(found).toContain('shop.fileCount ru plural-forms');
    expect(found).toContain('shop.fewCount en plural-forms');
    const russian = response.body.result.find((item: any) => item.key === 'shop.fileCount' && item.language === 'ru');
    expect(russian).toMatchObject({ entryId: ids['fileCount'], message: expect.stringContaining('few, many') });
    expect(response.body.result.find((item: any) => item.key === 'shop.fewCount').message).toContain('few, which en never uses');
    // a Japanese plural with only `other` is complete
    expect(found).not.toContain('shop.fileCount ja plural-forms');
  });

  it('finds translations whose placeholders differ from the base term, in both directions', async () => {
    const response = await checks('?check=placeholders');
    const byLanguage = Object.fromEntries(response.body.result.map((item: any) => [`${item.key} ${item.language}`, item.message]));
    expect(byLanguage['shop.greeting ru']).toMatch(/lacks \{name\}.*uses \{user\}/);
    expect(byLanguage['shop.greeting ja']).toContain('lacks {name}');
    expect(Object.keys(byLanguage)).not.toContain('shop.plainTitle ru');
    expect(Object.keys(byLanguage)).not.toContain('shop.fileCount ru');
  });

  it('names what a format cannot say natively, fallbacks included', async () => {
    const response = await checks('?check=not-native:i18next&limit=100');
    const found = response.body.result.map(keyOf);
    // i18next: a plural on another argument than count, and a select
    expect(found).toContain('shop.fewCount en not-native:i18next');
    expect(found).toContain('shop.genderText en not-native:i18next');
    // the select is exported as the base term's fallback in every language
    const fallback = response.body.result.find((item: any) => item.key === 'shop.genderText' && item.language === 'ja');
    expect(fallback.message).toContain('fallback');
    const vue = (await checks('?check=not-native:vue-i18n')).body.result.map(keyOf);
    expect(vue).toContain('shop.genderText en not-native:vue-i18n');
    expect(vue).not.toContain('shop.fileCount en not-native:vue-i18n');
    const flutter = (await checks('?check=not-native:flutter')).body.result.map(keyOf);
    expect(flutter).not.toContain('shop.genderText en not-native:flutter');
  });

  it('filters by language and pages deterministically', async () => {
    const all = (await checks()).body;
    expect(all.total).toBeGreaterThan(3);
    const russian = (await checks('?language=ru')).body;
    expect(russian.result.every((item: any) => item.language === 'ru')).toBe(true);
    expect(russian.total).toBe(all.result.filter((item: any) => item.language === 'ru').length);
    const first = (await checks('?limit=2&offset=0')).body;
    const second = (await checks('?limit=2&offset=2')).body;
    expect([...first.result, ...second.result]).toEqual(all.result.slice(0, 4));
    expect(first).toMatchObject({ limit: 2, offset: 0, total: all.total });
  });

  it('follows writes at once', async () => {
    await setTranslation(server, owner.apiKey, ids['fileCount']!, 'ru', '{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}');
    const found = (await checks('?check=plural-forms&language=ru')).body.result.map(keyOf);
    expect(found).not.toContain('shop.fileCount ru plural-forms');
  });

  it('refuses an unknown check or a language outside the project (400), strangers (404), and is readable by viewers', async () => {
    expect((await checks('?check=spelling')).status).toBe(400);
    const language = await checks('?language=fr');
    expect(language.status).toBe(400);
    expect(language.body.code).toBe('ERR_VALIDATION');
    expect((await checks('', stranger.apiKey)).status).toBe(404);
    expect((await server.api('GET', '/projects/no-such-project/checks', { key: owner.apiKey })).status).toBe(404);
    const viewer = await server.user();
    await addMember(server, projectId, viewer.id, 'viewer');
    expect((await checks('', viewer.apiKey)).status).toBe(200);
  });
});
