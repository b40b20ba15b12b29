/**
 * What real i18next files hold (CONTRACT "Import", "More of what real files hold" and "Nothing is
 * skipped silently"): namespaces in sub-folders (top-level groups named `components/dialog`, written
 * back by `?namespaces=true` and `tolk pull --namespaces`), dotted keys split like nesting, plural
 * families without `_other`, members outside the layout warned by name and unreadable ones refused by
 * name. Every rendering claim is checked in i18next itself: the original files and tolk's export are
 * loaded as an app loads them and their `t()` results compared.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import i18next, { type Resource } from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pull } from '../../src/cli/pull/pull.js';
import { tarGz } from '../helpers/archives.js';
import { untar } from '../helpers/consumers.js';
import { DIALECTS } from '../helpers/dialects.js';
import { checkIntegrity } from '../helpers/integrity.js';
import { createGroup, createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** An app's locales folder as real i18next apps keep it: namespaces in sub-folders, dotted keys in translations, a ru family without `_other`. */
const APP: Record<string, string> = {
  'en/common.json': json({
    save: 'Save',
    timeline: { aria: 'Timeline', title: 'Your timeline' },
    files: { count_one: '{{count}} file', count_other: '{{count}} files' },
    year_one: '{{count}} year',
    year_other: '{{count}} years',
  }),
  'en/components/dialog.json': json({ close: 'Close', confirm: { title: 'Are you sure?' } }),
  'en/components/forms/input.json': json({ placeholder: 'Type here, {{name}}' }),
  'de/common.json': json({
    save: 'Speichern',
    'timeline.aria': 'Zeitleiste',
    timeline: { title: 'Deine Zeitleiste' },
    'files.count_one': '{{count}} Datei',
    'files.count_other': '{{count}} Dateien',
    year_one: '{{count}} Jahr',
    year_other: '{{count}} Jahre',
  }),
  'de/components/dialog.json': json({ close: 'Schließen', 'confirm.title': 'Sicher?' }),
  'ru/common.json': json({
    save: 'Сохранить',
    'timeline.aria': 'Лента',
    'files.count_one': '{{count}} файл',
    'files.count_few': '{{count}} файла',
    'files.count_many': '{{count}} файлов',
    'files.count_other': '{{count}} файла',
    year_one: '{{count}} год',
    year_few: '{{count}} года',
    year_many: '{{count}} лет',
  }),
  'ru/components/forms/input.json': json({ placeholder: 'Введите, {{name}}' }),
  'README.md': '# Translations\n',
  'en.json': '{"save": "Save"}',
  'en/._common.json': 'AppleDouble\u0000binary',
};
const APP_JSON_MEMBERS = Object.keys(APP).filter((name) => /^[a-z]+\/[^.].*\.json$/.test(name));
const NAMESPACES = ['common', 'components/dialog', 'components/forms/input'];

/** A `t` over i18next files `<lng>/<ns>.json`, loaded as an app loads them (default separators, fallback en). */
async function i18nextT(files: ReadonlyMap<string, string> | Record<string, string>, fallbackLng: string | false = 'en') {
  const resources: Resource = {};
  for (const [name, text] of files instanceof Map ? files : Object.entries(files)) {
    const match = /^([^/]+)\/([^.].*)\.json$/.exec(name);
    if (!match) continue;
    (resources[match[1]!] ??= {})[match[2]!] = JSON.parse(text);
  }
  const i18n = i18next.createInstance();
  await i18n.init({ lng: 'en', fallbackLng, ns: NAMESPACES, defaultNS: 'common', resources, interpolation: { escapeValue: false } });
  return (key: string, options: Record<string, unknown> = {}) => i18n.t(key, options);
}

/** What the app shows, per language, for every key it uses. */
const CALLS: [key: string, options?: Record<string, unknown>][] = [
  ['common:save'],
  ['common:timeline.aria'],
  ['common:timeline.title'],
  ...[0, 1, 2, 5, 21].map((count): [string, Record<string, unknown>] => ['common:files.count', { count }]),
  ...[0, 1, 2, 5, 21].map((count): [string, Record<string, unknown>] => ['common:year', { count }]),
  ['components/dialog:close'],
  ['components/dialog:confirm.title'],
  ['components/forms/input:placeholder', { name: 'Ann' }],
];

const rendered = (t: Awaited<ReturnType<typeof i18nextT>>) =>
  Object.fromEntries(['en', 'de', 'ru'].flatMap((lng) => CALLS.map(([key, options]) => [`${lng} ${key} ${JSON.stringify(options ?? {})}`, t(key, { ...options, lng })])));

describe.each(DIALECTS)('i18next layouts on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  const newProject = async (body: Record<string, unknown> = {}) =>
    (await createProject(server, owner.apiKey, { baseLanguage: 'en', translationLanguages: ['de', 'ru'], keyStyle: 'free', ...body })).id as string;

  const exportOf = async (projectId: string, format: string, query = '') => {
    const response = await fetch(`${server.baseUrl}/projects/${projectId}/export/${format}${query}`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
    expect(response.status, await response.clone().text()).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };

  const importInto = async (projectId: string, files: Record<string, string> | Buffer, query = '') =>
    server.api('POST', `/projects/${projectId}/import?format=i18next${query}`, {
      key: owner.apiKey,
      rawBody: Buffer.isBuffer(files) ? files : await tarGz(files),
      headers: { 'content-type': 'application/gzip' },
    });

  it('reads namespaces in sub-folders as top-level groups named by their path, and names every member it does not read', async () => {
    const projectId = await newProject();
    const response = await importInto(projectId, APP);
    expect(response.status, response.text).toBe(200);
    expect(response.body.refused).toEqual([]);
    expect(response.body.files.map((file: any) => file.name)).toEqual(APP_JSON_MEMBERS);
    expect(response.body.files.find((file: any) => file.name === 'de/components/dialog.json')).toEqual({ name: 'de/components/dialog.json', language: 'de', texts: 2 });
    expect(response.body.warnings).toEqual([
      { key: 'README.md', language: '', message: 'not read: outside the i18next layout <lang>/<namespace>.json' },
      { key: 'en.json', language: '', message: 'not read: outside the i18next layout <lang>/<namespace>.json' },
      { key: 'en/._common.json', language: '', message: 'not read: a hidden file' },
      { key: 'common.year', language: 'ru', message: "the plural has no year_other: its other form is year_many's text" },
    ]);
    expect(response.body).toMatchObject({ groups: { created: 6 }, entries: { created: 8 }, translations: { created: 12 } });
    const groups = (await server.api('GET', `/projects/${projectId}/groups`, { key: owner.apiKey })).body.result;
    expect(groups.filter((group: any) => group.parentId === null).map((group: any) => group.technicalName).sort()).toEqual(NAMESPACES);
    // `tolk doctor` (the same check) accepts the namespace names at the top level
    expect(await checkIntegrity(server.store.db)).toEqual([]);
    const stored = JSON.parse((await exportOf(projectId, 'json')).toString());
    expect(stored.de['components/dialog']).toEqual({ close: 'Schließen', confirm: { title: 'Sicher?' } });
    expect(stored.de.common.files).toEqual({ count: '{count, plural, one {{count} Datei} other {{count} Dateien}}' });
  });

  it('?namespaces=true writes each namespace back to its sub-folder: i18next shows what it showed, and import → export gives the same files', async () => {
    const projectId = await newProject();
    expect((await importInto(projectId, APP)).status).toBe(200);
    const exported = await exportOf(projectId, 'i18next', '?namespaces=true');
    const files = await untar(exported);
    expect([...files.keys()]).toEqual(['en', 'de', 'ru'].flatMap((lng) => NAMESPACES.map((ns) => `${lng}/${ns}.json`)));
    expect(JSON.parse(files.get('en/components/dialog.json')!)).toEqual(JSON.parse(APP['en/components/dialog.json']!));
    // the dotted keys come back nested, as the base file has them
    expect(JSON.parse(files.get('de/common.json')!).timeline).toEqual({ aria: 'Zeitleiste', title: 'Deine Zeitleiste' });
    expect(rendered(await i18nextT(files))).toEqual(rendered(await i18nextT(APP)));

    const target = await newProject();
    const again = await importInto(target, exported);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ refused: [], warnings: [] });
    expect(await untar(await exportOf(target, 'i18next', '?namespaces=true'))).toEqual(files);
    // without the flag: one translation.json per language, the namespace a top-level key
    const flat = await untar(await exportOf(projectId, 'i18next'));
    expect(JSON.parse(flat.get('en/translation.json')!)['components/forms/input']).toEqual({ placeholder: 'Type here, {{name}}' });
  });

  it('tolk pull --namespaces writes the sub-folders', async () => {
    const projectId = await newProject();
    expect((await importInto(projectId, APP)).status).toBe(200);
    const out = mkdtempSync(join(tmpdir(), 'tolk-pull-namespaces-'));
    const url = server.baseUrl.replace(/\/api\/v1$/, '');
    const result = await pull({ url, apiKey: owner.apiKey, project: projectId, format: 'i18next', out, pretty: false, quiet: true, namespaces: true, maxBytes: 1024 * 1024 });
    expect(result.files).toEqual(['de/common.json', 'de/components/dialog.json', 'de/components/forms/input.json', 'en/common.json', 'en/components/dialog.json', 'en/components/forms/input.json', 'ru/common.json', 'ru/components/dialog.json', 'ru/components/forms/input.json']);
    const exported = await untar(await exportOf(projectId, 'i18next', '?namespaces=true'));
    for (const name of result.files) expect(readFileSync(join(out, name), 'utf8'), name).toBe(exported.get(name));
  });

  it('a plural family without _other: other takes the last category present; i18next shows the same for every integer', async () => {
    const projectId = await newProject();
    expect((await importInto(projectId, APP)).status).toBe(200);
    const stored = JSON.parse((await exportOf(projectId, 'json')).toString());
    expect(stored.ru.common.year).toBe('{count, plural, one {{count} год} few {{count} года} many {{count} лет} other {{count} лет}}');
    const original = await i18nextT(APP, false);
    const exported = await i18nextT(await untar(await exportOf(projectId, 'i18next', '?namespaces=true')), false);
    for (const count of [0, 1, 2, 5, 21, 101]) expect(exported('year', { lng: 'ru', count }), `${count}`).toBe(original('year', { lng: 'ru', count }));
    // 1.5 is `other` in ru: the original files have no `year_other`, so i18next shows the key (or the
    // fallback language's text); tolk's message has an `other`, the contract's choice.
    expect(original('year', { lng: 'ru', count: 1.5 })).toBe('year');
    expect((await i18nextT(APP))('year', { lng: 'ru', count: 1.5 })).toBe('1.5 years');
    expect(exported('year', { lng: 'ru', count: 1.5 })).toBe('1.5 лет');
  });

  it('a plain key beside its plural family fills the forms the family lacks, as i18next falls back to it (frigate ru labels.count)', async () => {
    const projectId = await newProject();
    const files = {
      'en/common.json': json({ labels: { count_one: '{{count}} label', count_other: '{{count}} labels' } }),
      'ru/common.json': json({ labels: { count: '{{count}} меток', count_one: '{{count}} Метка', count_other: '{{count}} меток' } }),
    };
    const response = await importInto(projectId, files);
    expect(response.status, response.text).toBe(200);
    expect(response.body.warnings).toEqual([
      { key: 'common.labels.count', language: 'ru', message: '"count" is a text beside its plural forms: it fills the forms the family lacks, as i18next falls back to it; t() without a count no longer finds a plain text' },
    ]);
    expect(JSON.parse((await exportOf(projectId, 'json')).toString()).ru.common.labels.count).toBe(
      '{count, plural, one {{count} Метка} few {{count} меток} many {{count} меток} other {{count} меток}}',
    );
    const original = await i18nextT(files, false);
    const exported = await i18nextT(await untar(await exportOf(projectId, 'i18next', '?namespaces=true')), false);
    for (const count of [0, 1, 2, 5, 21, 1.5]) {
      expect(exported('labels.count', { lng: 'ru', count }), `${count}`).toBe(original('labels.count', { lng: 'ru', count }));
    }
  });

  it('a dotted key is the nested key: given both ways it is refused, an empty part is refused, one the base lacks is skipped by name', async () => {
    const projectId = await newProject();
    const files = {
      'en/common.json': json({ timeline: { aria: 'Timeline' }, menu: { open: 'Open' } }),
      'de/common.json': json({ timeline: { aria: 'Zeitleiste' }, 'timeline.aria': 'Zeitachse', 'menu..open': 'Öffnen', 'gone.key': 'Weg', 'menu.open': 'Öffnen' }),
    };
    const refused = await importInto(projectId, files);
    expect(refused.status).toBe(400);
    expect(refused.body.details.map((detail: any) => detail.path).sort()).toEqual(['de:common.menu..open', 'de:common.timeline.aria']);
    const skipped = await importInto(projectId, files, '&skipInvalid=true');
    expect(skipped.status, skipped.text).toBe(200);
    expect(skipped.body.refused).toEqual([
      { key: 'common.menu..open', language: 'de', code: 'ERR_VALIDATION', message: 'an empty name between dots' },
      { key: 'common.timeline.aria', language: 'de', code: 'ERR_VALIDATION', message: 'the file gives this key twice' },
    ]);
    expect(skipped.body.warnings).toEqual([{ key: 'common.gone.key', language: 'de', message: "skipped: no entry has this key, and the base language's file does not hold it" }]);
    expect(skipped.body.translations).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(JSON.parse((await exportOf(projectId, 'json')).toString()).de.common).toEqual({ menu: { open: 'Öffnen' }, timeline: { aria: 'Zeitleiste' } });
  });

  it('a member that fits the layout but is not a JSON object is refused by name; skipInvalid reads the other files', async () => {
    const projectId = await newProject();
    const files = {
      'en/common.json': json({ save: 'Save' }),
      'de/components/broken.json': '{"save": ',
      'de/list.json': '["Speichern"]',
      'de/common.json': json({ save: 'Speichern' }),
    };
    const refused = await importInto(projectId, files);
    expect(refused.status).toBe(400);
    expect(refused.body.details.map((detail: any) => detail.path)).toEqual(['de:de/components/broken.json', 'de:de/list.json']);
    const skipped = await importInto(projectId, files, '&skipInvalid=true');
    expect(skipped.status, skipped.text).toBe(200);
    expect(skipped.body.refused).toEqual([
      { key: 'de/components/broken.json', language: 'de', code: 'ERR_VALIDATION', message: expect.stringMatching(/^not JSON: /) },
      { key: 'de/list.json', language: 'de', code: 'ERR_VALIDATION', message: 'must be an object of keys and texts, not an array' },
    ]);
    expect(skipped.body.files).toEqual([
      { name: 'en/common.json', language: 'en', texts: 1 },
      { name: 'de/common.json', language: 'de', texts: 1 },
    ]);
  });

  it('"/" in a group name: only a top-level group under keyStyle free, each part a free name', async () => {
    const free = await newProject();
    const top = await server.api('POST', `/projects/${free}/groups`, { key: owner.apiKey, body: { technicalName: 'components/dialog', displayName: 'Dialog' } });
    expect(top.status, top.text).toBe(200);
    const parent = (await createGroup(server, owner.apiKey, free, 'parent')).id;
    const refusals: [body: Record<string, unknown>, message: RegExp][] = [
      [{ technicalName: 'components/dialog', parentId: parent }, /may hold "\/" only at the top level/],
      [{ technicalName: 'components/item_one' }, /has the part "item_one", which may not end in an i18next plural suffix/],
      [{ technicalName: 'components/__proto__' }, /has the part "__proto__", which "__proto__" is reserved/],
      [{ technicalName: 'a//b' }, /technicalName/],
      [{ technicalName: '/a' }, /technicalName/],
      [{ technicalName: 'a/b.c' }, /technicalName/],
    ];
    for (const [body, message] of refusals) {
      const response = await server.api('POST', `/projects/${free}/groups`, { key: owner.apiKey, body: { displayName: 'x', ...body } });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message, JSON.stringify(body)).toMatch(message);
    }
    const moved = await server.api('PATCH', `/groups/${top.body.id}`, { key: owner.apiKey, body: { parentId: parent } });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toMatch(/may hold "\/" only at the top level/);
    const renamed = await server.api('PATCH', `/groups/${parent}`, { key: owner.apiKey, body: { technicalName: 'pages/home' } });
    expect(renamed.status, renamed.text).toBe(200);
    const camel = await newProject({ keyStyle: 'camelCase' });
    const camelTop = await server.api('POST', `/projects/${camel}/groups`, { key: owner.apiKey, body: { technicalName: 'components/dialog', displayName: 'Dialog' } });
    expect(camelTop.status).toBe(400);
    expect(camelTop.body.message).toMatch(/must be camelCase/);
    // and a free project with such a name cannot go back to camelCase
    const back = await server.api('PATCH', `/projects/${free}`, { key: owner.apiKey, body: { keyStyle: 'camelCase' } });
    expect(back.status).toBe(409);
    expect(back.body.message).toContain('group "components/dialog"');
  });

  it('camelCase: a namespace in a sub-folder is refused by the naming rule, by name', async () => {
    const projectId = await newProject({ keyStyle: 'camelCase' });
    const response = await importInto(projectId, { 'en/components/dialog.json': json({ close: 'Close' }), 'en/common.json': json({ save: 'Save' }) }, '&dryRun=true&skipInvalid=true');
    expect(response.status, response.text).toBe(200);
    expect(response.body.refused).toEqual([
      { key: 'components/dialog.close', language: 'en', code: 'ERR_VALIDATION', message: expect.stringMatching(/^the group name "components\/dialog" must be camelCase/) },
    ]);
  });
});
