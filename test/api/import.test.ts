/**
 * POST /projects/{id}/import (CONTRACT, "Import"): the four formats read back from their exports (round
 * trip to the same bytes), all or nothing, dry run, skipInvalid, keep/overwrite, capabilities, media
 * types, sizes and archive paths, key styles, top-level keys, i18next namespaces and context keys, and
 * ARB metadata.
 */
import { gzipSync } from 'node:zlib';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untar } from '../helpers/consumers.js';
import { tarGz } from '../helpers/archives.js';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createGroup, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const ARCHIVES = new Set(['i18next', 'flutter']);

describe.each(DIALECTS)('import on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect, { importMaxBytes: 256 * 1024 });
    owner = await server.user();
    other = await server.user();
  });
  afterAll(() => server?.close());

  const newProject = async (body: Record<string, unknown> = {}) =>
    (await createProject(server, owner.apiKey, { baseLanguage: 'en', translationLanguages: ['de', 'ru', 'pt-BR'], ...body })).id as string;

  const exportOf = async (projectId: string, format: string, query = '') => {
    const response = await fetch(`${server.baseUrl}/projects/${projectId}/export/${format}${query}`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
    expect(response.status, await response.clone().text()).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };

  const importInto = (projectId: string, format: string, body: Buffer | string | object, query = '', key = owner.apiKey) => {
    const raw = typeof body === 'object' && !Buffer.isBuffer(body) ? JSON.stringify(body) : body;
    const contentType = ARCHIVES.has(format) ? 'application/gzip' : 'application/json';
    return server.api('POST', `/projects/${projectId}/import?format=${format}${query}`, { key, rawBody: raw as string | Uint8Array, headers: { 'content-type': contentType } });
  };

  /** A project with nested groups, placeholders, plurals, apostrophes, Unicode, contextInfo and gaps. */
  async function seededProject(): Promise<string> {
    const projectId = await newProject();
    const auth = (await createGroup(server, owner.apiKey, projectId, 'auth')).id;
    const login = (await createGroup(server, owner.apiKey, projectId, 'login', auth)).id;
    const shop = (await createGroup(server, owner.apiKey, projectId, 'shop')).id;
    await createGroup(server, owner.apiKey, projectId, 'emptyGroup');
    const title = await createEntry(server, owner.apiKey, login, 'title', 'Sign in');
    const greet = await createEntry(server, owner.apiKey, auth, 'greeting', "Hello {name}, it's you");
    const files = await createEntry(server, owner.apiKey, shop, 'fileCount', '{count, plural, =0 {no files} one {# file} other {# files}}');
    const braces = await createEntry(server, owner.apiKey, shop, 'braceText', "Use '{'braces'}' here");
    await createEntry(server, owner.apiKey, shop, 'unicodeText', 'Grüße 👋 ☃');
    await server.api('PATCH', `/entries/${title.id}`, { key: owner.apiKey, body: { contextInfo: 'the login page heading' } });
    await setTranslation(server, owner.apiKey, title.id, 'de', 'Anmelden');
    await setTranslation(server, owner.apiKey, greet.id, 'de', 'Hallo {name}');
    await setTranslation(server, owner.apiKey, files.id, 'ru', '{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}');
    await setTranslation(server, owner.apiKey, files.id, 'de', '{count, plural, one {# Datei} other {# Dateien}}');
    await setTranslation(server, owner.apiKey, braces.id, 'pt-BR', "Use '{'chaves'}'");
    return projectId;
  }

  describe.each(['json', 'vue-i18n', 'i18next', 'flutter'])('round trip of %s', (format) => {
    it('export → import into an empty project → export gives the same bytes (the same members for archives)', async () => {
      const source = await seededProject();
      // the literal braces need gen-l10n's escaping syntax, both ways
      const query = format === 'flutter' ? '?escaping=true' : '';
      const exported = await exportOf(source, format, query);
      const target = await newProject();
      const response = await importInto(target, format, exported, query.replace('?', '&'));
      expect(response.status, response.text).toBe(200);
      expect(response.body.refused).toEqual([]);
      expect(response.body.entries.created).toBe(5);
      const again = await exportOf(target, format, query);
      if (ARCHIVES.has(format)) expect(await untar(again)).toEqual(await untar(exported));
      else expect(again.toString('utf8')).toBe(exported.toString('utf8'));
      // and a second import of the same files changes nothing
      const second = await importInto(target, format, exported, query.replace('?', '&'));
      expect(second.body).toMatchObject({ groups: { created: 0 }, entries: { created: 0, updated: 0 }, translations: { created: 0, updated: 0 }, conflicts: [] });
    });
  });

  it('creates groups, entries and translations and answers the contract report', async () => {
    const projectId = await newProject();
    const response = await importInto(projectId, 'json', {
      en: { home: { title: 'Home', menu: { open: 'Open {item}' } } },
      de: { home: { title: 'Startseite' } },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      dryRun: false,
      groups: { created: 2 },
      entries: { created: 2, updated: 0, unchanged: 0 },
      translations: { created: 1, updated: 0, unchanged: 0 },
      conflicts: [],
      refused: [],
      warnings: [],
      files: [
        { name: 'en', language: 'en', texts: 2 },
        { name: 'de', language: 'de', texts: 1 },
      ],
      totals: { conflicts: 0, refused: 0, warnings: 0, files: 2 },
      changeSetId: expect.stringMatching(/^[a-z0-9]{24}$/),
    });
    const groups = await server.api('GET', `/projects/${projectId}/groups`, { key: owner.apiKey });
    expect(groups.body.result.map((group: any) => group.technicalName)).toEqual(['home']);
    // the new entries lack the languages not imported: the untranslated list knows them
    const untranslated = await server.api('GET', `/projects/${projectId}/entries/untranslated?languageCode=de`, { key: owner.apiKey });
    expect(untranslated.body.result.map((entry: any) => entry.technicalName)).toEqual(['open']);
  });

  it('lists the imported entries in the files\' order where the order is by creation (the untranslated list)', async () => {
    const projectId = await newProject();
    const names = ['zeta', 'alpha', 'mike', 'bravo', 'yankee', 'charlie', 'xray', 'delta'];
    const response = await importInto(projectId, 'json', { en: { list: Object.fromEntries(names.map((name) => [name, `Text ${name}`])) } });
    expect(response.status, response.text).toBe(200);
    const untranslated = await server.api('GET', `/projects/${projectId}/entries/untranslated?languageCode=de`, { key: owner.apiKey });
    expect(untranslated.body.result.map((entry: any) => entry.technicalName)).toEqual(names);
  });

  it('dryRun answers what would happen and writes nothing; the ETag stays', async () => {
    const projectId = await newProject();
    const before = (await fetch(`${server.baseUrl}/projects/${projectId}/export/json`, { headers: { authorization: `Bearer ${owner.apiKey}` } })).headers.get('etag');
    const response = await importInto(projectId, 'json', { en: { home: { title: 'Home' } } }, '&dryRun=true');
    expect(response.body).toMatchObject({ dryRun: true, groups: { created: 1 }, entries: { created: 1 } });
    const after = (await fetch(`${server.baseUrl}/projects/${projectId}/export/json`, { headers: { authorization: `Bearer ${owner.apiKey}` } })).headers.get('etag');
    expect(after).toBe(before);
    expect((await server.api('GET', `/projects/${projectId}/groups`, { key: owner.apiKey })).body.total).toBe(0);
  });

  it('refuses the whole import with every refused item listed and nothing written; skipInvalid writes the rest', async () => {
    const projectId = await newProject();
    const body = {
      en: { home: { title: 'Home', Bad_Name: 'x', broken: 'a {b', ok: 'Ok' }, valid: { done: 'Done' } },
      fr: { home: { title: 'Accueil' } },
    };
    const refused = await importInto(projectId, 'json', body);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('ERR_VALIDATION');
    const paths = refused.body.details.map((detail: any) => detail.path);
    expect(paths).toEqual(expect.arrayContaining(['en:home.Bad_Name', 'en:home.broken', 'en:home.ok', 'fr']));
    expect(refused.body.details.find((detail: any) => detail.path === 'en:home.ok').message).toMatch(/4–100 characters/);
    expect(refused.body.details.find((detail: any) => detail.path === 'en:home.broken').message).toMatch(/not an ICU message at offset/);
    expect((await server.api('GET', `/projects/${projectId}/groups`, { key: owner.apiKey })).body.total).toBe(0);

    const skipped = await importInto(projectId, 'json', body, '&skipInvalid=true');
    expect(skipped.status, skipped.text).toBe(200);
    expect(skipped.body.entries.created).toBe(2);
    expect(skipped.body.totals.refused).toBe(4);
    // a language the project lacks is refused by the file it came from (the body's key), not as a text of that language
    expect(skipped.body.refused.map((item: any) => `${item.language}:${item.key}`)).toEqual(expect.arrayContaining(['en:home.Bad_Name', ':fr']));
  });

  it('mode=keep lists a differing stored text as a conflict; mode=overwrite replaces it; nothing is deleted', async () => {
    const projectId = await newProject();
    await importInto(projectId, 'json', { en: { home: { title: 'Home', extra: 'Extra' } }, de: { home: { title: 'Start' } } });
    const kept = await importInto(projectId, 'json', { en: { home: { title: 'Homepage' } }, de: { home: { title: 'Startseite' } } });
    expect(kept.body.conflicts).toEqual([
      { key: 'home.title', language: 'en', stored: 'Home', imported: 'Homepage' },
      { key: 'home.title', language: 'de', stored: 'Start', imported: 'Startseite' },
    ]);
    expect(JSON.parse((await exportOf(projectId, 'json')).toString()).en.home).toEqual({ extra: 'Extra', title: 'Home' });
    const overwritten = await importInto(projectId, 'json', { en: { home: { title: 'Homepage' } }, de: { home: { title: 'Startseite' } } }, '&mode=overwrite');
    expect(overwritten.body).toMatchObject({ entries: { updated: 1 }, translations: { updated: 1 }, conflicts: [] });
    const json = JSON.parse((await exportOf(projectId, 'json')).toString());
    expect(json.en.home).toEqual({ extra: 'Extra', title: 'Homepage' });
    expect(json.de.home.title).toBe('Startseite');
  });

  it('needs canEditEntries for new entries and canTranslate for translations: 403 naming it, nothing written', async () => {
    const projectId = await newProject();
    await importInto(projectId, 'json', { en: { home: { title: 'Home' } } });
    await addMember(server, projectId, other.id, 'translator');
    const needsEdit = await importInto(projectId, 'json', { en: { home: { subtitle: 'Sub' } } }, '', other.apiKey);
    expect(needsEdit.status).toBe(403);
    expect(needsEdit.body.message).toContain('canEditEntries');
    const translates = await importInto(projectId, 'json', { de: { home: { title: 'Start' } } }, '', other.apiKey);
    expect(translates.status, translates.text).toBe(200);
    expect(translates.body.translations.created).toBe(1);
    const stranger = await server.user();
    expect((await importInto(projectId, 'json', { en: {} }, '', stranger.apiKey)).status).toBe(404);
  });

  it('answers 415 for the wrong media type, 413 past IMPORT_MAX_BYTES, 400 for corrupt archives and members outside the layout', async () => {
    const projectId = await newProject();
    const asText = await server.api('POST', `/projects/${projectId}/import?format=json`, { key: owner.apiKey, rawBody: '{"en":{}}', headers: { 'content-type': 'text/plain' } });
    expect(asText.status, asText.text).toBe(415);
    expect(asText.body.code).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    const archiveForJson = await server.api('POST', `/projects/${projectId}/import?format=json`, { key: owner.apiKey, rawBody: await tarGz({ 'en/translation.json': '{}' }), headers: { 'content-type': 'application/gzip' } });
    expect(archiveForJson.status).toBe(415);
    const jsonForArchive = await server.api('POST', `/projects/${projectId}/import?format=flutter`, { key: owner.apiKey, rawBody: '{}', headers: { 'content-type': 'application/json' } });
    expect(jsonForArchive.status).toBe(415);
    const big = await importInto(projectId, 'json', { en: { home: { title: 'x'.repeat(300 * 1024) } } });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('ERR_PAYLOAD_TOO_LARGE');
    const corrupt = await importInto(projectId, 'i18next', Buffer.from('not gzip at all'));
    expect(corrupt.status).toBe(400);
    expect(corrupt.body.message).toContain('not gzip');
    const notTar = await importInto(projectId, 'i18next', gzipSync(Buffer.from('x'.repeat(2000))));
    expect(notTar.status).toBe(400);
    // A member in a sub-folder is a namespace (`deeper/translation`), which camelCase refuses by name.
    const deeper = await importInto(projectId, 'i18next', await tarGz({ 'en/deeper/translation.json': '{"hello": "Hello"}' }));
    expect(deeper.status).toBe(400);
    expect(deeper.body.message).toContain('the group name "deeper/translation" must be camelCase');
    const badJson = await importInto(projectId, 'json', '{"en": ');
    expect(badJson.status).toBe(400);
  });

  it("refuses an archive member whose path leaves the archive, even one the format's file-name rule would take: 400, nothing written", async () => {
    const projectId = await newProject();
    // Each path but the first two fits its format's file names (`<lang>/<ns>.json`, `<name>.arb` with
    // "@@locale"), so only the archive's own path check stands between it and an import.
    const i18next = '{"hello": "Hallo"}';
    const arb = '{"@@locale": "en", "helloWorld": "Hello world"}';
    const cases: [format: string, name: string, text: string, why: string][] = [
      ['i18next', '../x/translation.json', i18next, 'climbs out of the archive (..)'],
      ['i18next', '/etc/translation.json', i18next, 'is absolute'],
      ['i18next', '../translation.json', i18next, 'climbs out of the archive (..)'],
      ['i18next', 'C:de/translation.json', i18next, 'is absolute'],
      ['i18next', '..\\de/translation.json', i18next, 'holds a backslash'],
      ['flutter', 'C:app_en.arb', arb, 'is absolute'],
      ['flutter', '..\\app_en.arb', arb, 'holds a backslash'],
    ];
    for (const [format, name, text, why] of cases) {
      const outside = await importInto(projectId, format, await tarGz({ [name]: text }), '&skipInvalid=true');
      expect(outside.status, `${format} ${name}: ${outside.text}`).toBe(400);
      expect(outside.body.code).toBe('ERR_VALIDATION');
      expect(outside.body.message, name).toBe(`the archive member "${name}" ${why}: members must be paths inside the archive`);
    }
    expect((await server.api('GET', `/projects/${projectId}/groups`, { key: owner.apiKey })).body.total).toBe(0);
  });

  it('is one counted request', async () => {
    const user = await server.user({ dailyQuota: 3 });
    const projectId = (await createProject(server, user.apiKey, { baseLanguage: 'en', translationLanguages: ['de'] })).id;
    const body = { en: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`group${i}`, { title: `Title ${i}` }])) };
    const response = await importInto(projectId, 'json', body, '', user.apiKey);
    expect(response.status, response.text).toBe(200);
    expect(response.body.entries.created).toBe(30);
    expect(response.headers.get('ratelimit-remaining')).toBe('1');
  });

  describe('key styles', () => {
    it('free takes the app\'s own keys: snake_case, kebab-case, short names, top-level keys', async () => {
      const projectId = await newProject({ keyStyle: 'free' });
      const response = await importInto(projectId, 'json', { en: { ok: 'OK', 'user-menu': { log_out: 'Log out', am: 'AM' } }, de: { ok: 'Okay' } });
      expect(response.status, response.text).toBe(200);
      expect(response.body.entries.created).toBe(3);
      expect(JSON.parse((await exportOf(projectId, 'json')).toString())).toEqual({
        en: { ok: 'OK', 'user-menu': { am: 'AM', log_out: 'Log out' } },
        de: { ok: 'Okay', 'user-menu': { am: 'AM', log_out: 'Log out' } },
        ru: { ok: 'OK', 'user-menu': { am: 'AM', log_out: 'Log out' } },
        'pt-BR': { ok: 'OK', 'user-menu': { am: 'AM', log_out: 'Log out' } },
      });
      const vue = JSON.parse((await exportOf(projectId, 'vue-i18n')).toString());
      expect(vue.de).toEqual({ ok: 'Okay', 'user-menu.am': 'AM', 'user-menu.log_out': 'Log out' });
      // a plural suffix or a dot is never a free name
      const refused = await importInto(projectId, 'json', { en: { 'a.b': 'x', items_few: 'y', __proto__: 'z' } });
      expect(refused.status).toBe(400);
      expect(refused.body.details.length).toBe(2);
    });

    it('top-level keys share the top level\'s name space with the top-level groups (409 either way)', async () => {
      const projectId = await newProject({ keyStyle: 'free' });
      const imported = await importInto(projectId, 'json', { en: { ok: 'OK', menu: { open: 'Open' } } });
      expect(imported.status, imported.text).toBe(200);
      const groups = (await server.api('GET', `/projects/${projectId}/groups`, { key: owner.apiKey })).body.result as { id: string; technicalName: string }[];
      const keysGroup = groups.find((group) => group.technicalName === '');
      const menu = groups.find((group) => group.technicalName === 'menu');
      expect(keysGroup && menu, JSON.stringify(groups)).toBeTruthy();
      const createGroupNamed = (technicalName: string) =>
        server.api('POST', `/projects/${projectId}/groups`, { key: owner.apiKey, body: { technicalName, displayName: technicalName } });
      expect((await createGroupNamed('ok')).status).toBe(409);
      expect((await server.api('PATCH', `/groups/${menu!.id}`, { key: owner.apiKey, body: { technicalName: 'ok' } })).status).toBe(409);
      const entryNamed = (technicalName: string) =>
        server.api('POST', `/groups/${keysGroup!.id}/entries`, { key: owner.apiKey, body: { technicalName, baseTerm: technicalName } });
      expect((await entryNamed('menu')).status).toBe(409);
      // the same names elsewhere, and other names here, are free
      expect((await createGroupNamed('other')).status).toBe(200);
      expect((await entryNamed('cancel')).status).toBe(200);
      expect((await server.api('POST', `/groups/${menu!.id}/entries`, { key: owner.apiKey, body: { technicalName: 'ok', baseTerm: 'OK' } })).status).toBe(200);
    });

    it('camelCase lists every refused key with the rule it breaks, in one dry run', async () => {
      const projectId = await newProject();
      const response = await importInto(projectId, 'json', { en: { ok: 'OK', 'user-menu': { log_out: 'Log out', logIn: 'Log in' } } }, '&dryRun=true&skipInvalid=true');
      expect(response.status, response.text).toBe(200);
      const byKey = Object.fromEntries(response.body.refused.map((item: any) => [item.key, item.message]));
      expect(Object.keys(byKey).sort()).toEqual(['ok', 'user-menu.logIn', 'user-menu.log_out']);
      expect(byKey['ok']).toMatch(/entry name "ok" must be 4–100 characters/);
      expect(byKey['user-menu.log_out']).toMatch(/group name "user-menu" must be camelCase/);
    });

    it('is set on create and by PATCH, and goes back to camelCase only while every name fits (409)', async () => {
      const projectId = await newProject({ keyStyle: 'free' });
      expect((await server.api('GET', `/projects/${projectId}`, { key: owner.apiKey })).body.keyStyle).toBe('free');
      const group = await createGroup(server, owner.apiKey, projectId, 'user_menu');
      const back = await server.api('PATCH', `/projects/${projectId}`, { key: owner.apiKey, body: { keyStyle: 'camelCase' } });
      expect(back.status).toBe(409);
      expect(back.body.message).toContain('group "user_menu"');
      await server.api('PATCH', `/groups/${group.id}`, { key: owner.apiKey, body: { technicalName: 'userMenu' } });
      const fits = await server.api('PATCH', `/projects/${projectId}`, { key: owner.apiKey, body: { keyStyle: 'camelCase' } });
      expect(fits.status, fits.text).toBe(200);
      expect(fits.body.keyStyle).toBe('camelCase');
      const refused = await server.api('POST', `/projects/${projectId}/groups`, { key: owner.apiKey, body: { technicalName: 'user_menu', displayName: 'x' } });
      expect(refused.status).toBe(400);
      expect(refused.body.details[0].path).toBe('/body/technicalName');
    });
  });

  it('i18next namespaces: ?namespaces=true writes each top-level group as <lang>/<group>.json, and the import reads it back', async () => {
    const projectId = await newProject({ keyStyle: 'free' });
    const archive = await tarGz({
      'en/common.json': JSON.stringify({ save: 'Save', items_one: '{{count}} item', items_other: '{{count}} items' }),
      'en/home-page.json': JSON.stringify({ title: 'Welcome, {{name}}', nested: { deep: 'Deep' } }),
      'de/common.json': JSON.stringify({ save: 'Speichern', items_one: '{{count}} Element', items_other: '{{count}} Elemente', extra: '' }),
    });
    const response = await importInto(projectId, 'i18next', archive);
    expect(response.status, response.text).toBe(200);
    expect(response.body.warnings).toEqual([{ key: 'common.extra', language: 'de', message: 'empty: not translated, skipped' }]);
    const json = JSON.parse((await exportOf(projectId, 'json')).toString());
    expect(json.en.common.items).toBe('{count, plural, one {{count} item} other {{count} items}}');
    expect(json.en['home-page'].title).toBe('Welcome, {name}');
    const files = await untar(await exportOf(projectId, 'i18next', '?namespaces=true'));
    expect([...files.keys()].filter((name) => name.startsWith('en/')).sort()).toEqual(['en/common.json', 'en/home-page.json']);
    expect(JSON.parse(files.get('de/common.json')!)).toEqual({ items_one: '{{count}} Element', items_other: '{{count}} Elemente', save: 'Speichern' });
    const flat = await untar(await exportOf(projectId, 'i18next'));
    expect(JSON.parse(flat.get('en/translation.json')!)['home-page']).toEqual({ nested: { deep: 'Deep' }, title: 'Welcome, {{name}}' });
  });

  describe('i18next context keys (friend_male)', () => {
    // i18next looks `t('friend', {context: 'male'})` up as `friend_male`, and with a count as
    // `friend_male_one`…: the plural siblings fold into `friend_male`, the context stays in the name.
    const CONTEXT_FILES = {
      'en/translation.json': JSON.stringify({
        people: {
          friend: 'A friend',
          friend_male: 'A boyfriend',
          friend_female: 'A girlfriend',
          pal_one: '{{count}} pal',
          pal_other: '{{count}} pals',
          pal_male_one: '{{count}} boyfriend',
          pal_male_other: '{{count}} boyfriends',
        },
      }),
      'de/translation.json': JSON.stringify({
        people: { friend_male: 'Ein Freund', friend_female: 'Eine Freundin', pal_male_one: '{{count}} Freund', pal_male_other: '{{count}} Freunde' },
      }),
    };

    /** A `t` over an i18next export, loaded as an app loads it (JSON v4 plurals, default separators). */
    async function i18nextT(files: Map<string, string>) {
      const resources = Object.fromEntries(['en', 'de'].map((language) => [language, { translation: JSON.parse(files.get(`${language}/translation.json`)!) }]));
      const i18n = i18next.createInstance();
      await i18n.init({ lng: 'en', resources, interpolation: { escapeValue: false } });
      return (key: string, options: Record<string, unknown>) => i18n.t(key, options);
    }

    it('free: each context key is an entry of its own (its plural siblings one plural), no warning; export → import → export gives the same files', async () => {
      const source = await newProject({ keyStyle: 'free', translationLanguages: ['de'] });
      const response = await importInto(source, 'i18next', await tarGz(CONTEXT_FILES));
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({
        dryRun: false,
        groups: { created: 1 },
        entries: { created: 5, updated: 0, unchanged: 0 },
        translations: { created: 3, updated: 0, unchanged: 0 },
        conflicts: [],
        refused: [],
        warnings: [],
        files: [
          { name: 'en/translation.json', language: 'en', texts: 5 },
          { name: 'de/translation.json', language: 'de', texts: 3 },
        ],
        totals: { conflicts: 0, refused: 0, warnings: 0, files: 2 },
        changeSetId: expect.any(String),
      });
      const json = JSON.parse((await exportOf(source, 'json')).toString());
      expect(json.en.people).toEqual({
        friend: 'A friend',
        friend_female: 'A girlfriend',
        friend_male: 'A boyfriend',
        pal: '{count, plural, one {{count} pal} other {{count} pals}}',
        pal_male: '{count, plural, one {{count} boyfriend} other {{count} boyfriends}}',
      });
      // de has no `friend` or `pal`: the export's fallback, not translations
      expect(json.de.people).toMatchObject({ friend_female: 'Eine Freundin', friend_male: 'Ein Freund', pal_male: '{count, plural, one {{count} Freund} other {{count} Freunde}}' });
      const untranslated = await server.api('GET', `/projects/${source}/entries/untranslated?languageCode=de`, { key: owner.apiKey });
      expect(untranslated.body.result.map((entry: any) => entry.technicalName).sort()).toEqual(['friend', 'pal']);

      const exported = await exportOf(source, 'i18next');
      const files = await untar(exported);
      expect(JSON.parse(files.get('en/translation.json')!)).toEqual(JSON.parse(CONTEXT_FILES['en/translation.json']));
      const target = await newProject({ keyStyle: 'free', translationLanguages: ['de'] });
      const again = await importInto(target, 'i18next', exported);
      expect(again.status, again.text).toBe(200);
      expect(again.body).toMatchObject({ entries: { created: 5 }, translations: { created: 3 }, refused: [], warnings: [] });
      const reexported = await untar(await exportOf(target, 'i18next'));
      expect(reexported).toEqual(files);
      // and i18next finds the context keys as it found them in the original files
      const t = await i18nextT(reexported);
      expect(t('people.friend', { context: 'male' })).toBe('A boyfriend');
      expect(t('people.friend', { context: 'female', lng: 'de' })).toBe('Eine Freundin');
      expect(t('people.friend', { context: 'other' })).toBe('A friend');
      expect(t('people.pal', { context: 'male', count: 2, lng: 'de' })).toBe('2 Freunde');
      expect(t('people.pal', { count: 1 })).toBe('1 pal');
    });

    it('camelCase: the context keys are refused by the naming rule, their translations skipped with a warning', async () => {
      const projectId = await newProject({ translationLanguages: ['de'] });
      const body = await tarGz(CONTEXT_FILES);
      const refused = await importInto(projectId, 'i18next', body);
      expect(refused.status).toBe(400);
      expect(refused.body.details.map((detail: any) => detail.path).sort()).toEqual(['en:people.friend_female', 'en:people.friend_male', 'en:people.pal', 'en:people.pal_male']);
      expect((await server.api('GET', `/projects/${projectId}/groups`, { key: owner.apiKey })).body.total).toBe(0);

      const skipped = await importInto(projectId, 'i18next', body, '&skipInvalid=true');
      expect(skipped.status, skipped.text).toBe(200);
      expect(skipped.body).toMatchObject({ groups: { created: 1 }, entries: { created: 1 }, translations: { created: 0 }, totals: { refused: 4, warnings: 3 } });
      expect(skipped.body.refused.find((item: any) => item.key === 'people.friend_male').message).toMatch(/entry name "friend_male" must be camelCase/);
      expect(skipped.body.warnings).toEqual(
        ['friend_male', 'friend_female', 'pal_male'].map((name) => ({ key: `people.${name}`, language: 'de', message: 'skipped: its base text was refused' })),
      );
      expect(JSON.parse((await exportOf(projectId, 'json')).toString()).en).toEqual({ people: { friend: 'A friend' } });
    });
  });

  it('keeps empty texts out as untranslated and inlines vue-i18n links, each under warnings', async () => {
    const projectId = await newProject({ keyStyle: 'free' });
    const response = await importInto(projectId, 'vue-i18n', { en: { 'menu.home': 'Home', 'menu.about': 'About @:menu.home' }, de: { 'menu.home': '' } });
    expect(response.status, response.text).toBe(200);
    // links are read once the whole body is (test/api/import-vue-links.test.ts): their warnings come last
    expect(response.body.warnings).toEqual([
      { key: 'menu.home', language: 'de', message: expect.stringContaining('not translated') },
      { key: 'menu.about', language: 'en', message: expect.stringContaining('@:menu.home is replaced') },
    ]);
    expect(response.body.translations.created).toBe(0);
  });

  it('keeps ARB @key metadata (types, formats, examples, descriptions) and writes it again', async () => {
    const projectId = await newProject({ translationLanguages: ['de'] });
    const template = {
      '@@locale': 'en',
      itemCount: '{count, plural, =0{No items} =1{One item} other{{count} items}}',
      '@itemCount': { description: 'How many items', placeholders: { count: { type: 'int', example: '3' } } },
      priceLabel: 'Price: {price}',
      '@priceLabel': { placeholders: { price: { type: 'double', format: 'currency', optionalParameters: { symbol: '€', decimalDigits: 2 } } } },
    };
    const archive = await tarGz({ 'app_en.arb': JSON.stringify(template), 'app_de.arb': JSON.stringify({ '@@locale': 'de', priceLabel: 'Preis: {price}' }) });
    const response = await importInto(projectId, 'flutter', archive);
    expect(response.status, response.text).toBe(200);
    const files = await untar(await exportOf(projectId, 'flutter'));
    const exported = JSON.parse(files.get('app_en.arb')!);
    expect(exported['@itemCount']).toEqual({ description: 'How many items', placeholders: { count: { type: 'int', example: '3' } } });
    expect(exported['@priceLabel']).toEqual(template['@priceLabel']);
    expect(JSON.parse(files.get('app_de.arb')!).priceLabel).toBe('Preis: {price}');
    // placed so that the Flutter key comes back: itemCount → item › count
    const json = JSON.parse((await exportOf(projectId, 'json')).toString());
    expect(json.en.item.count).toBe('{count, plural, =0 {No items} =1 {One item} other {{count} items}}');
  });
});
