/**
 * POST /projects/{id}/import names every file it does not take (CONTRACT "Import": nothing is skipped
 * silently): a flutter archive member outside the layout is a warning naming it, one that cannot be read
 * a refused item naming it (400 listing it, or skipped with skipInvalid); a file of a language the
 * project lacks is refused by its name, with its count of texts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz } from '../helpers/archives.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const arb = (locale: string | undefined, texts: Record<string, string>) => JSON.stringify(locale ? { '@@locale': locale, ...texts } : texts);

describe.each(DIALECTS)('import accounts for every file on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  const newProject = async (translationLanguages = ['de']) =>
    (await createProject(server, owner.apiKey, { baseLanguage: 'en', translationLanguages, keyStyle: 'free' })).id as string;
  const importInto = async (projectId: string, format: string, body: Buffer | object, query = '') =>
    server.api('POST', `/projects/${projectId}/import?format=${format}${query}`, {
      key: owner.apiKey,
      rawBody: Buffer.isBuffer(body) ? body : JSON.stringify(body),
      headers: { 'content-type': Buffer.isBuffer(body) ? 'application/gzip' : 'application/json' },
    });
  const groupCount = async (projectId: string) => (await server.api('GET', `/projects/${projectId}/groups`, { key: owner.apiKey })).body.total;

  describe('flutter', () => {
    it('a member outside the layout is a warning naming it, and the rest is imported', async () => {
      const projectId = await newProject();
      const archive = await tarGz({
        'app_en.arb': arb('en', { homeTitle: 'Home' }),
        'app_de.arb': arb('de', { homeTitle: 'Start' }),
        'README.md': '# strings',
        '.DS_Store': '\u0000\u0001',
        '._app_en.arb': '\u0000\u0005binary',
        'old/app_fr.arb': arb('fr', { homeTitle: 'Accueil' }),
      });
      const response = await importInto(projectId, 'flutter', archive);
      expect(response.status, response.text).toBe(200);
      expect(response.body.files).toEqual([
        { name: 'app_en.arb', language: 'en', texts: 1 },
        { name: 'app_de.arb', language: 'de', texts: 1 },
      ]);
      expect(response.body.refused).toEqual([]);
      expect(response.body.warnings).toEqual([
        { key: 'README.md', language: '', message: 'not read: not an .arb file (the flutter layout is <name>_<locale>.arb)' },
        { key: '.DS_Store', language: '', message: 'not read: a hidden file' },
        { key: '._app_en.arb', language: '', message: 'not read: a hidden file' },
        { key: 'old/app_fr.arb', language: '', message: "not read: in a sub-folder (the flutter layout is <name>_<locale>.arb at the archive's top)" },
      ]);
      expect(response.body.translations.created).toBe(1);
    });

    it('a member that cannot be read is refused by name: 400 listing each, nothing written; skipInvalid imports the others', async () => {
      const projectId = await newProject();
      const archive = await tarGz({
        'app_en.arb': arb('en', { homeTitle: 'Home' }),
        'app_de.arb': '{"@@locale": "de", "homeTitle": ',
        'app_list.arb': '["homeTitle"]',
        'strings.arb': arb(undefined, { homeTitle: 'Home?' }),
        'intl_en.arb': arb('en', { homeTitle: 'Home again' }),
      });
      const refused = await importInto(projectId, 'flutter', archive);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.code).toBe('ERR_VALIDATION');
      expect(refused.body.details).toEqual([
        { path: 'app_de.arb', message: expect.stringMatching(/^not JSON, not read: /) },
        { path: 'app_list.arb', message: 'must hold an object, not an array; not read' },
        { path: 'strings.arb', message: 'names no locale, not read: give "@@locale" or end its name in _<locale>' },
        { path: 'intl_en.arb', message: 'a second file for the locale en ("app_en.arb" is the first), not read' },
      ]);
      expect(await groupCount(projectId)).toBe(0);

      const skipped = await importInto(projectId, 'flutter', archive, '&skipInvalid=true');
      expect(skipped.status, skipped.text).toBe(200);
      expect(skipped.body.files).toEqual([{ name: 'app_en.arb', language: 'en', texts: 1 }]);
      expect(skipped.body.refused.map((item: any) => [item.key, item.language, item.code])).toEqual([
        ['app_de.arb', '', 'ERR_VALIDATION'],
        ['app_list.arb', '', 'ERR_VALIDATION'],
        ['strings.arb', '', 'ERR_VALIDATION'],
        ['intl_en.arb', '', 'ERR_VALIDATION'],
      ]);
      expect(skipped.body.entries.created).toBe(1);
    });

    it("gen-l10n's fallback file of a language the project lacks is named in a warning", async () => {
      const projectId = await newProject(['pt-BR']);
      const archive = await tarGz({
        'app_en.arb': arb('en', { homeTitle: 'Home' }),
        'app_pt.arb': arb('pt', { homeTitle: 'Início' }),
        'app_pt_BR.arb': arb('pt_BR', { homeTitle: 'Início' }),
      });
      const response = await importInto(projectId, 'flutter', archive);
      expect(response.status, response.text).toBe(200);
      expect(response.body.refused).toEqual([]);
      expect(response.body.warnings).toEqual([{ key: 'app_pt.arb', language: '', message: expect.stringMatching(/^not imported: gen-l10n's fallback file .*pt is not a language of the project/) }]);
    });
  });

  describe('a language the project lacks', () => {
    it('is refused once per file it came from, by the file\'s name, with that file\'s count of texts', async () => {
      const projectId = await newProject();
      const archive = await tarGz({
        'en/common.json': JSON.stringify({ save: 'Save' }),
        'fr/common.json': JSON.stringify({ save: 'Enregistrer', cancel: 'Annuler' }),
        'fr/components/dialog.json': JSON.stringify({ title: 'Dialogue' }),
      });
      const response = await importInto(projectId, 'i18next', archive, '&skipInvalid=true');
      expect(response.status, response.text).toBe(200);
      expect(response.body.refused).toEqual([
        { key: 'fr/common.json', language: '', code: 'ERR_VALIDATION', message: 'fr is not a language of the project (base en, translations de): its 2 text(s) are not imported' },
        { key: 'fr/components/dialog.json', language: '', code: 'ERR_VALIDATION', message: 'fr is not a language of the project (base en, translations de): its 1 text(s) are not imported' },
      ]);
      const all = await importInto(projectId, 'i18next', archive);
      expect(all.status).toBe(400);
      expect(all.body.details.map((detail: any) => detail.path)).toEqual(['fr/common.json', 'fr/components/dialog.json']);
    });

    it('in a JSON body: named by its key; a second set of texts for one language too', async () => {
      const projectId = await newProject();
      const response = await importInto(projectId, 'json', { en: { home: { title: 'Home' } }, ru: { home: { title: 'Дом' } }, de: { home: { title: 'Start' } }, DE: { home: { title: 'Anfang' } } }, '&skipInvalid=true');
      expect(response.status, response.text).toBe(200);
      expect(response.body.refused).toEqual([
        { key: 'ru', language: '', code: 'ERR_VALIDATION', message: 'ru is not a language of the project (base en, translations de): its 1 text(s) are not imported' },
        { key: 'DE', language: '', code: 'ERR_VALIDATION', message: 'a second set of texts for de: its 1 text(s) are not imported' },
      ]);
      expect(response.body.translations.created).toBe(1);
    });
  });

  it('json: a language whose messages are no object is refused, and not listed among the files read', async () => {
    const projectId = await newProject();
    const response = await importInto(projectId, 'json', { en: { home: { title: 'Home' } }, de: ['Start'] }, '&skipInvalid=true');
    expect(response.status, response.text).toBe(200);
    expect(response.body.files).toEqual([{ name: 'en', language: 'en', texts: 1 }]);
    expect(response.body.refused).toEqual([{ key: '', language: 'de', code: 'ERR_VALIDATION', message: 'the messages of a language must be an object, not an array' }]);
  });
});
