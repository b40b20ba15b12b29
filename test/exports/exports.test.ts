import { join } from 'node:path';
import i18next from 'i18next';
import FsBackend from 'i18next-fs-backend';
import { IntlMessageFormat } from 'intl-messageformat';
import { literalMessage } from '../../src/messages/print-icu.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untar, VUE_I18N_VERSIONS, vueI18nT, writeTree } from '../helpers/consumers.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createGroup, createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Text that breaks naive exports: stored as the ICU message rendering it (literalMessage), every runtime must render exactly it. */
const HOSTILE = [
  'Plain text',
  'Emoji 👩‍👩‍👧 and 🎉',
  'مرحبا بالعالم',
  '日本語のテキスト',
  'Combining: e\u0301 and n\u0303',
  'Quotes "double" and \'single\' and it\'s',
  'Back\\slash and \\n literal',
  'Braces {name} and { lone and } lone',
  'Mail a@b.com and @:linked',
  'Tom | Jerry',
  '100% and a%%{x}',
  'Dollar $5 and $t(other)',
  'Line one\nLine two\r\nLine three',
];

/** What i18next itself interprets in text (documented in the README), left out of its equality check. */
const I18NEXT_SYNTAX = /\{\{|\$t\(/;

interface Seeded {
  projectId: string;
  /** expected[language][dotted path] = the rendered text */
  expected: Record<string, Record<string, string>>;
}

async function seed(server: TestServer, key: string): Promise<Seeded> {
  const project = await createProject(server, key, { name: 'Export app', baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'] });
  const auth = await createGroup(server, key, project.id, 'auth');
  const login = await createGroup(server, key, project.id, 'login', auth.id);
  const misc = await createGroup(server, key, project.id, 'misc');
  await createGroup(server, key, project.id, 'emptyGroup');
  const expected: Seeded['expected'] = { en: {}, de: {}, 'pt-BR': {} };
  for (const [index, text] of HOSTILE.entries()) {
    const [group, path] = index % 2 === 0 ? [login, 'auth.login'] : [misc, 'misc'];
    const name = `text${String.fromCharCode(97 + index)}Item`;
    const entry = await createEntry(server, key, group.id, name, literalMessage(text));
    const dotted = `${path}.${name}`;
    expected.en![dotted] = text;
    // German: every entry translated (reversed text, still hostile); pt-BR: every third, the rest falls back.
    const german = `DE ${text}`;
    await server.api('PUT', `/entries/${entry.id}/translations`, { key, body: { language: 'de', translation: literalMessage(german) } });
    expected.de![dotted] = german;
    if (index % 3 === 0) {
      const portuguese = `PT ${text}`;
      await server.api('PUT', `/entries/${entry.id}/translations`, { key, body: { language: 'pt-BR', translation: literalMessage(portuguese) } });
      expected['pt-BR']![dotted] = portuguese;
    } else {
      expected['pt-BR']![dotted] = text;
    }
  }
  const title = await createEntry(server, key, auth.id, 'title', 'Welcome');
  for (const language of ['en', 'de', 'pt-BR']) expected[language]!['auth.title'] = 'Welcome';
  await server.api('PUT', `/entries/${title.id}/translations`, { key, body: { language: 'de', translation: 'Willkommen' } });
  expected.de!['auth.title'] = 'Willkommen';
  return { projectId: project.id, expected };
}

/** Reads a dotted path out of a nested object. */
const at = (tree: any, dotted: string) => dotted.split('.').reduce((node, part) => node?.[part], tree);

async function download(server: TestServer, key: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe.each(DIALECTS)('exports on %s', (dialect) => {
  let server: TestServer;
  let owner: { apiKey: string };
  let seeded: Seeded;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
    seeded = await seed(server, owner.apiKey);
  });
  afterAll(() => server?.close());

  it('exports nested JSON per language, with base-term fallback and empty groups as {}', async () => {
    const response = await download(server, owner.apiKey, `/projects/${seeded.projectId}/export/json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = JSON.parse(response.bytes.toString('utf8'));
    expect(Object.keys(document)).toEqual(['en', 'de', 'pt-BR']);
    for (const [language, texts] of Object.entries(seeded.expected)) {
      // The stored messages unchanged, which the reference ICU formatter renders as the text.
      for (const [dotted, text] of Object.entries(texts)) {
        const message = at(document[language], dotted);
        expect(message, `${language} ${dotted}`).toBe(literalMessage(text));
        expect(new IntlMessageFormat(message, language, undefined, { ignoreTag: true }).format(), `${language} ${dotted}`).toBe(text);
      }
      expect(document[language].emptyGroup).toEqual({});
    }
    // compact by default, and byte-identical to JSON.stringify of the same data
    expect(response.bytes.toString('utf8')).toBe(JSON.stringify(document));
  });

  it('pretty-prints with format=true, exactly as JSON.stringify(…, null, 2)', async () => {
    const response = await download(server, owner.apiKey, `/projects/${seeded.projectId}/export/json?format=true`);
    const text = response.bytes.toString('utf8');
    expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2));
  });

  it('gives the same bytes for the same data', async () => {
    for (const format of ['json', 'vue-i18n', 'i18next']) {
      const first = await download(server, owner.apiKey, `/projects/${seeded.projectId}/export/${format}`);
      const second = await download(server, owner.apiKey, `/projects/${seeded.projectId}/export/${format}`);
      expect(first.bytes.equals(second.bytes), format).toBe(true);
    }
  });

  it.each(VUE_I18N_VERSIONS.flatMap((version) => [[version, true], [version, false]] as const))(
    'vue-i18n export renders every stored text in %s (legacy %s)',
    async (version, legacy) => {
      const response = await download(server, owner.apiKey, `/projects/${seeded.projectId}/export/vue-i18n`);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const messages = JSON.parse(response.bytes.toString('utf8'));
      for (const [language, texts] of Object.entries(seeded.expected)) {
        expect(Object.keys(messages[language]).sort()).toEqual(Object.keys(texts).sort());
        const t = vueI18nT(version, legacy, messages, language);
        for (const [dotted, text] of Object.entries(texts)) expect(t(dotted), `${language} ${dotted}`).toBe(text);
      }
    },
  );

  it('i18next archive loads with i18next-fs-backend defaults and t() returns every stored text', async () => {
    const response = await download(server, owner.apiKey, `/projects/${seeded.projectId}/export/i18next`);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="export-app-i18next.tar.gz"');
    const files = await untar(response.bytes);
    expect([...files.keys()].sort()).toEqual(['de/translation.json', 'en/translation.json', 'pt-BR/translation.json']);
    const root = writeTree(files, 'locales');
    const i18n = i18next.createInstance();
    await i18n.use(FsBackend).init({
      lng: 'en',
      preload: ['en', 'de', 'pt-BR'],
      backend: { loadPath: join(root, 'locales/{{lng}}/{{ns}}.json') },
    });
    for (const [language, texts] of Object.entries(seeded.expected)) {
      for (const [dotted, text] of Object.entries(texts)) {
        if (I18NEXT_SYNTAX.test(text)) continue;
        expect(i18n.t(dotted, { lng: language }), `${language} ${dotted}`).toBe(text);
      }
    }
  });

  it('pretty-prints JSON inside archives with format=true', async () => {
    const response = await download(server, owner.apiKey, `/projects/${seeded.projectId}/export/i18next?format=true`);
    const text = (await untar(response.bytes)).get('de/translation.json')!;
    expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2));
    expect(text).toContain('\n  "auth": {');
  });

  it('answers If-None-Match with the current ETag by 304, and any write changes the ETag', async () => {
    const path = `/projects/${seeded.projectId}/export/json`;
    const first = await download(server, owner.apiKey, path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const cached = await download(server, owner.apiKey, path, { 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
    expect(cached.headers.get('etag')).toBe(etag);
    expect((await download(server, owner.apiKey, path, { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    // Another representation of the same data has its own ETag.
    const pretty = await download(server, owner.apiKey, `${path}?format=true`);
    expect(pretty.headers.get('etag')).not.toBe(etag);

    const group = await createGroup(server, owner.apiKey, seeded.projectId, 'laterGroup');
    const changed = await download(server, owner.apiKey, path, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(JSON.parse(changed.bytes.toString('utf8')).en.laterGroup).toEqual({});
    await server.api('DELETE', `/groups/${group.id}`, { key: owner.apiKey });
  });

  it('hides a removed translation language from exports and brings it back when re-added', async () => {
    const path = `/projects/${seeded.projectId}/export/json`;
    await server.api('PATCH', `/projects/${seeded.projectId}`, { key: owner.apiKey, body: { translationLanguages: ['de'] } });
    expect(Object.keys(JSON.parse((await download(server, owner.apiKey, path)).bytes.toString('utf8')))).toEqual(['en', 'de']);
    await server.api('PATCH', `/projects/${seeded.projectId}`, { key: owner.apiKey, body: { translationLanguages: ['de', 'pt-BR'] } });
    const document = JSON.parse((await download(server, owner.apiKey, path)).bytes.toString('utf8'));
    expect(at(document['pt-BR'], 'auth.login.textaItem')).toBe(seeded.expected['pt-BR']!['auth.login.textaItem']);
  });

  it.each(['json', 'vue-i18n', 'i18next', 'flutter'])('refuses /export/%s to strangers (404) and without a key (401)', async (format) => {
    const stranger = await server.user();
    const hidden = await download(server, stranger.apiKey, `/projects/${seeded.projectId}/export/${format}`);
    expect(hidden.status).toBe(404);
    expect(JSON.parse(hidden.bytes.toString('utf8')).code).toBe('ERR_PROJECT_NOT_FOUND');
    const anonymous = await fetch(`${server.baseUrl}/projects/${seeded.projectId}/export/${format}`);
    expect(anonymous.status).toBe(401);
    const unknown = await download(server, owner.apiKey, `/projects/nope/export/${format}`);
    expect(unknown.status).toBe(404);
  });

  it('exports an empty project as one empty object per language', async () => {
    const project = await createProject(server, owner.apiKey, { translationLanguages: ['fr'] });
    const response = await download(server, owner.apiKey, `/projects/${project.id}/export/json`);
    expect(JSON.parse(response.bytes.toString('utf8'))).toEqual({ en: {}, fr: {} });
  });
});
