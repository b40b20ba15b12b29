/**
 * vue-i18n pipe forms through the API (CONTRACT "Import" round trip): a vue-i18n file holding, for every
 * class of language, the pipe shapes the export writes (one form per CLDR category, and the `=0` form
 * first) imports and exports again to the same texts and then the same bytes; a locale named with an
 * underscore (`pt_BR`) reads its forms with its language's categories.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluralCategoriesOf } from '../../src/messages/plural-rules.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

/** Translation languages of 1 (ja, zh, ko), 3 (fr, he), 4 (ru, pl), 5 (ga) and 6 (ar, cy) categories; the base en has 2. */
const TRANSLATIONS = ['ja', 'zh', 'ko', 'de', 'fr', 'he', 'ru', 'pl', 'ga', 'ar', 'cy'];

const pipes = (count: number, word: string) => Array.from({ length: count }, (_, index) => `${word}${index} {count}`).join(' | ');

/** A language's vue-i18n file (flat dotted keys, as the export writes it) holding both exported shapes of a plural. */
function fileOf(language: string): Record<string, string> {
  const categories = pluralCategoriesOf(language).length;
  return {
    // one category alone is written as a plain message
    'plural.exact': categories === 1 ? `${language} {count}` : pipes(categories, language),
    'plural.withZero': pipes(categories + 1, language),
  };
}

describe.each(DIALECTS)('vue-i18n pipe forms through the API on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  const newProject = async (translationLanguages: string[]) =>
    (await createProject(server, owner.apiKey, { baseLanguage: 'en', translationLanguages, keyStyle: 'free' })).id as string;
  const importInto = (projectId: string, body: string) =>
    server.api('POST', `/projects/${projectId}/import?format=vue-i18n`, { key: owner.apiKey, rawBody: body, headers: { 'content-type': 'application/json' } });
  const exportOf = async (projectId: string) => {
    const response = await fetch(`${server.baseUrl}/projects/${projectId}/export/vue-i18n`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
    expect(response.status).toBe(200);
    return response.text();
  };

  it('every class of language: import → export gives the same texts, and the export imported again gives the same bytes', async () => {
    const body = Object.fromEntries(['en', ...TRANSLATIONS].map((language) => [language, fileOf(language)]));
    const first = await newProject(TRANSLATIONS);
    const imported = await importInto(first, JSON.stringify(body));
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toMatchObject({ refused: [], warnings: [], translations: { created: 2 * TRANSLATIONS.length } });
    const exported = await exportOf(first);
    expect(JSON.parse(exported)).toEqual(body);

    const second = await newProject(TRANSLATIONS);
    expect((await importInto(second, exported)).status).toBe(200);
    expect(await exportOf(second)).toBe(exported);
  });

  it('ja: two pipe forms are stored as =0 and other', async () => {
    const projectId = await newProject(['ja']);
    const imported = await importInto(projectId, JSON.stringify({ en: { items: 'no items | one item | {count} items' }, ja: { items: 'なし | {count} 個' } }));
    expect(imported.status, imported.text).toBe(200);
    const json = JSON.parse(await (await fetch(`${server.baseUrl}/projects/${projectId}/export/json`, { headers: { authorization: `Bearer ${owner.apiKey}` } })).text());
    expect(json.ja.items).toBe('{count, plural, =0 {なし} other {# 個}}');
  });

  it('a locale named pt_BR in the file reads its pipe forms with pt-BR\'s categories (one, many, other) and exports them as they were', async () => {
    const projectId = await newProject(['pt-BR']);
    const imported = await importInto(projectId, JSON.stringify({ en: { items: 'one item | {count} items' }, pt_BR: { items: 'um item | {count} de itens | {count} itens' } }));
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.refused).toEqual([]);
    expect(JSON.parse(await exportOf(projectId))['pt-BR'].items).toBe('um item | {count} de itens | {count} itens');
  });
});
