import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';
import { DIALECTS } from '../helpers/dialects.js';
import { created, createGroup, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** `tolk <command> …` with no TOLK_ variables inherited. */
function tolk(command: 'push' | 'pull', args: string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['TOLK_URL', 'TOLK_API_KEY', 'CI']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [TOLK_BIN, command, ...args], { cwd: tmpdir(), env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const freshDir = () => mkdtempSync(join(tmpdir(), 'tolk-push-'));
/** Every exported file of a pulled directory (the pull's own state file left out), name → text. */
const filesOf = (dir: string) =>
  Object.fromEntries(
    (readdirSync(dir, { recursive: true, withFileTypes: true }) as any[])
      .filter((entry) => entry.isFile() && entry.name !== '.tolk-pull.json')
      .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(dir.length + 1))
      .sort()
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );

type Format = 'json' | 'vue-i18n' | 'i18next' | 'flutter';
/** What `--in` names for a pulled directory. */
const inputOf = (dir: string, format: Format) => (format === 'json' ? join(dir, 'messages.json') : dir);
/** The files' content as compared: exact text, except ARB files, compared parsed (key order is the export's). */
const comparable = (files: Record<string, string>, format: Format) =>
  format === 'flutter' ? Object.fromEntries(Object.entries(files).map(([name, text]) => [name, JSON.parse(text)])) : files;

describe.each(DIALECTS)('tolk push on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let url: string;
  let seededId: string;
  const languages = { baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'] };
  const connection = (project: string, apiKey = key) => ['--url', url, '--key', apiKey, '--project', project];

  async function pull(project: string, format: Format): Promise<string> {
    const out = freshDir();
    const result = await tolk('pull', [...connection(project), '--format', format, '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    return out;
  }
  async function push(project: string, format: Format, input: string, extra: string[] = []) {
    const result = await tolk('push', [...connection(project), '--format', format, '--in', input, ...extra]);
    return { ...result, summary: result.code === 0 ? JSON.parse(result.stdout) : undefined };
  }
  const etagOf = async (project: string) => (await server.api('GET', `/projects/${project}/export/json`, { key })).headers.get('etag');
  const emptyProject = async () => (await createProject(server, key, languages)).id as string;

  beforeAll(async () => {
    server = await startServer(dialect);
    url = server.baseUrl.replace(/\/api\/v1$/, '');
    key = (await server.user()).apiKey;
    seededId = (await createProject(server, key, languages)).id;
    const auth = await createGroup(server, key, seededId, 'auth');
    const login = await createGroup(server, key, seededId, 'login', auth.id);
    const support = await createGroup(server, key, seededId, 'support');
    await createGroup(server, key, seededId, 'emptyGroup');
    const entry = (groupId: string, technicalName: string, baseTerm: string, contextInfo?: string) =>
      created(server, key, `/groups/${groupId}/entries`, { technicalName, baseTerm, contextInfo });
    const submit = await entry(login.id, 'submit', 'Sign in, {name}!', 'Button of the login form');
    const title = await entry(auth.id, 'title', 'Welcome 👋');
    const mail = await entry(support.id, 'mail', 'Write to help@example.com', 'Shown under "Contact"');
    const quote = await entry(support.id, 'quote', "It's über-easy 🎉");
    await setTranslation(server, key, submit.id, 'de', 'Anmelden, {name}!');
    await setTranslation(server, key, title.id, 'de', 'Willkommen 👋');
    await setTranslation(server, key, mail.id, 'de', 'Schreib an help@example.com');
    await setTranslation(server, key, quote.id, 'de', "Es ist über-einfach 🎉 ('wirklich')");
    await setTranslation(server, key, submit.id, 'pt-BR', 'Entrar, {name}!');
    // pt-BR lacks the others: the export shows their base terms, which a push must not turn into translations
  });
  afterAll(() => server?.close());

  describe.each(['json', 'vue-i18n', 'i18next', 'flutter'] as Format[])('%s', (format) => {
    it('a pushed export exported again gives the same files, and a second push writes nothing', async () => {
      const original = await pull(seededId, format);
      const target = await emptyProject();
      const first = await push(target, format, inputOf(original, format));
      expect(first.code, first.stderr).toBe(0);
      expect(first.summary.counts).toMatchObject({ entriesCreated: 4, baseTermsChanged: 0, translationsCreated: 5, translationsChanged: 0, fallbacksLeft: 3 });
      expect(first.summary.writes).toBeGreaterThan(0);
      expect(comparable(filesOf(await pull(target, format)), format)).toEqual(comparable(filesOf(original), format));
      const untranslated = await server.api('GET', `/projects/${target}/entries/untranslated?languageCode=pt-BR`, { key });
      expect(untranslated.body.total).toBe(3);

      const etag = await etagOf(target);
      const second = await push(target, format, inputOf(original, format));
      expect(second.code, second.stderr).toBe(0);
      expect(second.summary.writes).toBe(0);
      expect(second.summary.counts).toMatchObject({ groupsCreated: 0, entriesCreated: 0, baseTermsChanged: 0, translationsCreated: 0, translationsChanged: 0 });
      expect(await etagOf(target)).toBe(etag);
    });

    it('--dry-run prints the plan and changes nothing', async () => {
      const original = await pull(seededId, format);
      const target = await emptyProject();
      const before = filesOf(await pull(target, format));
      const etag = await etagOf(target);
      const dry = await push(target, format, inputOf(original, format), ['--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.summary).toMatchObject({ dryRun: true, writes: 0, languages: ['de', 'pt-BR'] });
      expect(dry.summary.counts).toMatchObject({ entriesCreated: 4, translationsCreated: 5, translationsChanged: 0, baseTermsChanged: 0 });
      expect(dry.summary.changes.entries).toHaveLength(4);
      expect(dry.summary.changes.translations).toContainEqual({ language: 'de', path: expect.stringMatching(/quote$/), from: null, to: "Es ist über-einfach 🎉 ('wirklich')" });
      expect(await etagOf(target)).toBe(etag);
      expect(filesOf(await pull(target, format))).toEqual(before);
    });
  });

  describe('vue-i18n', () => {
    it('reads the single file of all languages the export endpoint returns, and unescapes texts', async () => {
      const target = await emptyProject();
      const input = join(freshDir(), 'all.json');
      writeFileSync(input, JSON.stringify({ en: { 'home.greeting': "Hi {'{'}name{'}'} {'@'} {'|'} {'%'} {'\\\\'}{'\\u000D'}" }, de: { 'home.greeting': 'Hallo' } }));
      const result = await push(target, 'vue-i18n', input);
      expect(result.code, result.stderr).toBe(0);
      expect(result.summary.counts).toMatchObject({ groupsCreated: 1, entriesCreated: 1, translationsCreated: 1 });
      const exported = (await server.api('GET', `/projects/${target}/export/json`, { key })).body;
      // the literal braces are ICU-quoted, so the stored message renders the text the vue file rendered
      expect(exported.en).toEqual({ home: { greeting: "Hi '{name} @ | % \\\r'" } });
      expect(exported.de).toEqual({ home: { greeting: 'Hallo' } });
    });

    it('reads placeholders and pipe plurals as ICU messages', async () => {
      const target = await emptyProject();
      const dir = freshDir();
      writeFileSync(join(dir, 'en.json'), JSON.stringify({ 'home.greeting': 'Hi {name}', 'home.files': 'no files | {n} file | {n} files' }));
      const result = await tolk('push', [...connection(target), '--format', 'vue-i18n', '--in', dir]);
      expect(result.code, result.stderr).toBe(0);
      const exported = (await server.api('GET', `/projects/${target}/export/json`, { key })).body;
      expect(exported.en.home).toEqual({ greeting: 'Hi {name}', files: '{n, plural, =0 {no files} one {# file} other {# files}}' });
    });

    it('refuses pipe forms that fit no plural of the language, before writing', async () => {
      const target = await emptyProject();
      const etag = await etagOf(target);
      const dir = freshDir();
      writeFileSync(join(dir, 'en.json'), JSON.stringify({ 'home.greeting': 'a | b | c | d' }));
      const result = await tolk('push', [...connection(target), '--format', 'vue-i18n', '--in', dir]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('"home.greeting"');
      expect(await etagOf(target)).toBe(etag);
    });
  });

  describe('flutter', () => {
    it('maps keys to existing entries, new keys to a group by their first word, and takes descriptions as contextInfo', async () => {
      const original = await pull(seededId, 'flutter');
      const target = await emptyProject();
      const result = await push(target, 'flutter', original);
      expect(result.code, result.stderr).toBe(0);
      // app_pt.arb is the fallback file gen-l10n wants beside app_pt_BR.arb; pt is not a project language
      expect(result.summary.skippedLanguages).toEqual([{ language: 'pt', reason: expect.stringContaining('not a language of the project') }]);
      expect(result.summary.changes.groups).toEqual(['auth', 'support']);
      expect(result.summary.changes.entries).toEqual(['auth.loginSubmit', 'auth.title', 'support.mail', 'support.quote']);
      const groups = (await server.api('GET', `/projects/${target}/groups`, { key })).body.result;
      const auth = groups.find((group: any) => group.technicalName === 'auth');
      const entries = (await server.api('GET', `/groups/${auth.id}/entries`, { key })).body.result;
      expect(entries.find((entry: any) => entry.technicalName === 'loginSubmit').contextInfo).toBe('Button of the login form');

      // into the seeded tree, keys land on the existing entries: a changed description is an update, nothing else
      const template = JSON.parse(readFileSync(join(original, 'app_en.arb'), 'utf8'));
      template['@authLoginSubmit'].description = 'The sign-in button';
      template.authLoginSubmitAgain = 'Sign in again';
      writeFileSync(join(original, 'app_en.arb'), JSON.stringify(template));
      const dry = await push(seededId, 'flutter', original, ['--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.summary.counts).toMatchObject({ groupsCreated: 0, entriesCreated: 1, contextInfosChanged: 1, baseTermsChanged: 0, translationsCreated: 0, translationsChanged: 0 });
      expect(dry.summary.changes.entries).toEqual(['auth.login.submitAgain']);
      expect(dry.summary.changes.contextInfos).toEqual([{ path: 'auth.login.submit', from: 'Button of the login form', to: 'The sign-in button' }]);
    });

    it('reports and skips a key that fits no group, and a translated key with no entry', async () => {
      const target = await emptyProject();
      const dir = freshDir();
      writeFileSync(join(dir, 'app_en.arb'), JSON.stringify({ '@@locale': 'en', homeGreeting: 'Hi', ok: 'OK', homeOk: 'OK' }));
      writeFileSync(join(dir, 'app_de.arb'), JSON.stringify({ '@@locale': 'de', homeGreeting: 'Hallo', homeFarewell: 'Tschüss' }));
      const result = await push(target, 'flutter', dir);
      expect(result.code, result.stderr).toBe(0);
      expect(result.summary.changes.entries).toEqual(['home.greeting']);
      expect(result.summary.skipped.map((skip: any) => `${skip.language}:${skip.path}`)).toEqual(['en:ok', 'en:homeOk', 'de:homeFarewell']);
    });
  });

  describe('json', () => {
    it('updates a changed base term and translation, and only those', async () => {
      const original = await pull(seededId, 'json');
      const target = await emptyProject();
      expect((await push(target, 'json', join(original, 'messages.json'))).code).toBe(0);
      const document = JSON.parse(readFileSync(join(original, 'messages.json'), 'utf8'));
      document.en.auth.title = 'Hello 👋';
      document.de.support.mail = 'Schreiben Sie an help@example.com';
      document['pt-BR'].auth.title = 'Olá';
      const changed = join(freshDir(), 'messages.json');
      writeFileSync(changed, JSON.stringify(document));
      const result = await push(target, 'json', changed);
      expect(result.code, result.stderr).toBe(0);
      expect(result.summary.counts).toMatchObject({ groupsCreated: 0, entriesCreated: 0, baseTermsChanged: 1, translationsCreated: 1, translationsChanged: 1 });
      expect(result.summary.changes.baseTerms).toEqual([{ path: 'auth.title', from: 'Welcome 👋', to: 'Hello 👋' }]);
      expect(result.summary.writes).toBe(3);
      const exported = JSON.parse(readFileSync(join(await pull(target, 'json'), 'messages.json'), 'utf8'));
      expect(exported).toEqual(document);
    });

    it('reports and skips a language the project does not have', async () => {
      const target = await emptyProject();
      const input = join(freshDir(), 'messages.json');
      writeFileSync(input, JSON.stringify({ en: { home: { greeting: 'Hi' } }, fr: { home: { greeting: 'Salut' } }, de: { home: { greeting: 'Hallo' } } }));
      const result = await push(target, 'json', input);
      expect(result.code, result.stderr).toBe(0);
      expect(result.summary.languages).toEqual(['de']);
      expect(result.summary.skippedLanguages).toEqual([{ language: 'fr', reason: expect.stringContaining('not a language of the project') }]);
      expect(result.summary.counts).toMatchObject({ groupsCreated: 1, entriesCreated: 1, translationsCreated: 1 });
      const exported = (await server.api('GET', `/projects/${target}/export/json`, { key })).body;
      expect(exported).toEqual({ en: { home: { greeting: 'Hi' } }, de: { home: { greeting: 'Hallo' } }, 'pt-BR': { home: { greeting: 'Hi' } } });
    });

    it('a bad key: exit 1 with ERR_UNAUTHORIZED, nothing written', async () => {
      const original = await pull(seededId, 'json');
      const target = await emptyProject();
      const etag = await etagOf(target);
      const result = await tolk('push', [...connection(target, 'tolk_not_a_key'), '--format', 'json', '--in', join(original, 'messages.json')]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^tolk: ERR_UNAUTHORIZED: .+\n$/);
      expect(await etagOf(target)).toBe(etag);
    });

    it.each([
      ['--in', ['--format', 'json'], 'missing --in'],
      ['a pushable --format', ['--format', 'xliff', '--in', 'x'], '--format must be one of json, vue-i18n, i18next, flutter'],
    ])('without %s: exit 1 before any request, nothing on stdout', async (_label, args, reason) => {
      const result = await tolk('push', [...connection('p'), ...args]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(reason);
    });

    it('refuses input that is not in the format\'s shape, before writing', async () => {
      const target = await emptyProject();
      const etag = await etagOf(target);
      const input = join(freshDir(), 'messages.json');
      writeFileSync(input, JSON.stringify({ en: { home: { greeting: 42 } } }));
      const result = await tolk('push', [...connection(target), '--format', 'json', '--in', input]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('"home.greeting" is number, not text or an object');
      expect(await etagOf(target)).toBe(etag);
    });

    it('stops at the first write the server refuses and says how far it got', async () => {
      const target = await emptyProject();
      const input = join(freshDir(), 'messages.json');
      writeFileSync(input, JSON.stringify({ en: { home: { greeting: 'Hi', abc: 'too short a name' } } }));
      const result = await tolk('push', [...connection(target), '--format', 'json', '--in', input]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^tolk: ERR_VALIDATION: .*\(stopped at write 3 of 3 \(create entry home\.abc\); the 2 before it were made\)\n$/);
    });
  });
});
