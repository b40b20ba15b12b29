/**
 * vue-i18n linked messages through the API (CONTRACT "Import": replaced by the linked message's text, one
 * level deep, with a warning): a vue-i18n app whose texts link to each other is imported and pulled
 * again, and real vue-i18n renders from the pulled file what it rendered from the app's own file (set up
 * as tolk's README says: its pluralRules, the base language as fallbackLocale); links with no faithful
 * ICU form stay literal text, each named in the report with why.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';
import { readmePluralRule } from '../real-apps/runtimes.js';

const require = createRequire(import.meta.url);

const APP = {
  en: {
    common: { save: 'Save', cancel: 'Cancel', files: 'no files | {count} file | {count} files', greeting: 'hello {name}' },
    dialog: {
      // a key ends at a space or a brace: the `?` would belong to it
      confirm: "@:common.save or @.lower:common.cancel{'?'}",
      title: '@.capitalize:common.greeting',
      summary: 'You have @:common.files',
      later: 'See @:help.text',
      shout: '@.upper:common.greeting',
      unknown: '@:common.nothing',
    },
    help: { text: 'the help' },
  },
  de: {
    common: { save: 'Speichern', files: 'keine Dateien | {count} Datei | {count} Dateien' },
    dialog: { confirm: "@:common.save oder @.lower:common.cancel{'?'}", summary: 'Du hast @:common.files' },
  },
  ru: {
    common: { files: '{count} файл | {count} файла | {count} файлов | {count} файла' },
    dialog: { summary: 'У вас @:common.files' },
  },
};

/** The keys whose links are inlined, and how many links each holds. */
const INLINED: Record<string, Record<string, number>> = {
  en: { 'dialog.confirm': 2, 'dialog.title': 1, 'dialog.summary': 1, 'dialog.later': 1 },
  de: { 'dialog.confirm': 2, 'dialog.summary': 1 },
  ru: { 'dialog.summary': 1 },
};
const COUNTS = [0, 1, 2, 3, 5, 11, 21, 22, 25, 101];

/** vue-i18n 11's t over `messages`, as the README sets it up. */
function vueT(messages: object, locale: string) {
  const { createI18n } = require('vue-i18n-11') as { createI18n: (options: object) => { global: { t: (key: string, named: object, plural: number) => string } } };
  const rule = readmePluralRule();
  const pluralRules = Object.fromEntries(Object.keys(APP).map((language) => [language, rule(language)]));
  return createI18n({ legacy: false, locale, fallbackLocale: 'en', messages, pluralRules, missingWarn: false, fallbackWarn: false, warnHtmlMessage: false }).global.t;
}

describe.each(DIALECTS)('vue-i18n links through the API on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  const importApp = async (query = '') => {
    const projectId = (await createProject(server, owner.apiKey, { baseLanguage: 'en', translationLanguages: ['de', 'ru'], keyStyle: 'free' })).id as string;
    const response = await server.api('POST', `/projects/${projectId}/import?format=vue-i18n${query}`, {
      key: owner.apiKey,
      rawBody: JSON.stringify(APP),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status, response.text).toBe(200);
    return { projectId, report: response.body };
  };

  it('reports each link, inlined or kept with why (the dry run too)', async () => {
    for (const query of ['&dryRun=true', '']) {
      const { report } = await importApp(query);
      expect(report.refused).toEqual([]);
      for (const [language, keys] of Object.entries(INLINED)) {
        for (const [key, links] of Object.entries(keys)) {
          const replaced = report.warnings.filter((w: any) => w.language === language && w.key === key && / is replaced by the text of /.test(w.message));
          expect(replaced, `${language} ${key}`).toHaveLength(links);
        }
      }
      expect(report.warnings).toEqual(
        expect.arrayContaining([
          { key: 'dialog.shout', language: 'en', message: expect.stringMatching(/@\.upper:common\.greeting is kept as literal text: vue-i18n upper-cases the value of \{name\} too/) },
          { key: 'dialog.unknown', language: 'en', message: expect.stringMatching(/@:common\.nothing is kept as literal text: no message common\.nothing/) },
          { key: 'dialog.confirm', language: 'de', message: expect.stringMatching(/@\.lower:common\.cancel is replaced by the text of common\.cancel \(en's.*lower-cased/) },
        ]),
      );
    }
  });

  it('the pulled file renders in real vue-i18n what the app\'s own file rendered, for every inlined key and count', async () => {
    const { projectId } = await importApp();
    const response = await fetch(`${server.baseUrl}/projects/${projectId}/export/vue-i18n`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
    const pulled = (await response.json()) as Record<string, Record<string, string>>;
    // no link is left in what was inlined: the pulled texts say it all themselves
    expect(pulled.en!['dialog.confirm']).toBe('Save or cancel?');
    expect(pulled.ru!['dialog.summary']).toBe('У вас {count} файл | У вас {count} файла | У вас {count} файлов | У вас {count} файла');
    for (const [language, keys] of Object.entries(INLINED)) {
      const before = vueT(APP, language);
      const after = vueT(pulled, language);
      for (const key of Object.keys(keys)) {
        for (const count of COUNTS) {
          const args = { name: 'Ann', count };
          expect(after(key, args, count), `${language} ${key} ${count}`).toBe(before(key, args, count));
        }
      }
    }
    // a link kept as literal text is shown as written (vue-i18n would show the missing key)
    expect(vueT(pulled, 'en')('dialog.unknown', {}, 1)).toBe('@:common.nothing');
  });
});
