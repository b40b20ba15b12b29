import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';
import { untar } from '../helpers/consumers.js';
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

/** A shell word for `script -c`'s command line. */
const quoted = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * `tolk push …` at a terminal: run under `script`, so that standard input, output and error are a
 * pseudo-terminal, unless `redirect` (e.g. `> file`) sends one elsewhere. Answers what reached the terminal.
 */
function tolkAtTerminal(args: string[], redirect = ''): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['TOLK_URL', 'TOLK_API_KEY', 'CI']) delete env[name];
  const command = `${[process.execPath, TOLK_BIN, 'push', ...args].map(quoted).join(' ')} ${redirect}`;
  return new Promise((resolve) => {
    const child = execFile('script', ['-qec', command, '/dev/null'], { cwd: tmpdir(), env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
    child.stdin?.end();
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
    const result = await tolk('push', [...connection(project), '--format', format, '--in', input, '--json', ...extra]);
    return { ...result, report: result.stdout ? JSON.parse(result.stdout) : undefined };
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
    it('a pushed pull, pulled again, gives the same files, in one request; a second push writes nothing', async () => {
      const original = await pull(seededId, format);
      const target = await emptyProject();
      const usage = async () => Number((await server.api('GET', '/info', { key })).headers.get('ratelimit-remaining'));
      const before = await usage();
      const first = await push(target, format, inputOf(original, format));
      expect(first.code, first.stderr).toBe(0);
      // one request for the push (the /info calls count one each)
      expect(before - (await usage())).toBe(2);
      expect(first.report).toMatchObject({
        dryRun: false,
        entries: { created: 4, updated: 0 },
        translations: { created: 5, updated: 0, unchanged: 3 },
        refused: [],
      });
      expect(comparable(filesOf(await pull(target, format)), format)).toEqual(comparable(filesOf(original), format));
      const untranslated = await server.api('GET', `/projects/${target}/entries/untranslated?languageCode=pt-BR`, { key });
      expect(untranslated.body.total).toBe(3);

      const etag = await etagOf(target);
      const second = await push(target, format, inputOf(original, format));
      expect(second.code, second.stderr).toBe(0);
      expect(second.report).toMatchObject({ groups: { created: 0 }, entries: { created: 0, updated: 0 }, translations: { created: 0, updated: 0 } });
      expect(await etagOf(target)).toBe(etag);
    });

    it('--dry-run prints what would happen and changes nothing', async () => {
      const original = await pull(seededId, format);
      const target = await emptyProject();
      const before = filesOf(await pull(target, format));
      const etag = await etagOf(target);
      const dry = await push(target, format, inputOf(original, format), ['--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.report).toMatchObject({ dryRun: true, entries: { created: 4 }, translations: { created: 5, updated: 0 } });
      expect(await etagOf(target)).toBe(etag);
      expect(filesOf(await pull(target, format))).toEqual(before);
    });
  });

  describe('progress while uploading', () => {
    // ~1.5 MB, so that the upload goes out in several steps
    const bigInput = () => {
      const text = (i: number) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(280)}`;
      const input = join(freshDir(), 'messages.json');
      writeFileSync(input, JSON.stringify({ en: { bulk: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`paragraph${i}`, text(i)])) } }));
      return input;
    };
    const PROGRESS = /tolk push: uploading/;
    /** The progress lines' figures: [sent, total] in MB, in the order written. */
    const progressOf = (output: string) => [...output.matchAll(/\rtolk push: uploading (\d+\.\d) MB of (\d+\.\d) MB/g)].map((match) => [Number(match[1]), Number(match[2])] as const);

    it('at a terminal: progress lines on stderr, rewritten in place up to the whole size, then the report', async () => {
      const input = bigInput();
      const total = Number((readFileSync(input).length / 1024 / 1024).toFixed(1));
      expect(total).toBeGreaterThanOrEqual(1.4);
      const out = join(freshDir(), 'report.txt');
      // stdout to a file: what reaches the terminal is standard error alone
      const result = await tolkAtTerminal([...connection(await emptyProject()), '--format', 'json', '--in', input, '--dry-run'], `> ${quoted(out)}`);
      expect(result.code, result.stdout).toBe(0);
      const steps = progressOf(result.stdout);
      expect(steps.length, result.stdout).toBeGreaterThanOrEqual(2);
      expect(steps.every(([, of]) => of === total)).toBe(true);
      expect(steps.map(([sent]) => sent)).toEqual(steps.map(([sent]) => sent).sort((a, b) => a - b));
      expect(steps.at(-1)).toEqual([total, total]);
      // each line overwrites the last (\r), and the terminal's line is ended before the report
      expect(result.stdout.replace(/\r\n/g, '\n')).toMatch(/^(\rtolk push: uploading \d+\.\d MB of \d+\.\d MB)+\n$/);
      const report = readFileSync(out, 'utf8');
      expect(report).toMatch(/^Dry run \(nothing written\) from 1 file\(s\)\n  groups +1 new\n  entries +200 new/);
      expect(report).not.toMatch(PROGRESS);
    });

    it('--json at a terminal: the report on stdout is the JSON alone', async () => {
      const out = join(freshDir(), 'report.json');
      const result = await tolkAtTerminal([...connection(await emptyProject()), '--format', 'json', '--in', bigInput(), '--dry-run', '--json'], `> ${quoted(out)}`);
      expect(result.code, result.stdout).toBe(0);
      const report = readFileSync(out, 'utf8');
      expect(report).not.toMatch(PROGRESS);
      expect(JSON.parse(report)).toMatchObject({ dryRun: true, entries: { created: 200 }, files: [{ name: 'en', language: 'en', texts: 200, path: 'messages.json' }], notRead: [] });
    });

    it('piped (standard error not a terminal): no progress, with or without --json', async () => {
      const project = await emptyProject();
      const input = bigInput();
      const table = await tolk('push', [...connection(project), '--format', 'json', '--in', input, '--dry-run']);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stderr).toBe('');
      expect(table.stdout).toMatch(/^Dry run \(nothing written\) from 1 file\(s\)\n/);
      expect(table.stdout).not.toMatch(PROGRESS);
      const json = await push(project, 'json', input, ['--dry-run']);
      expect(json.code, json.stderr).toBe(0);
      expect(json.stderr).toBe('');
      expect(json.report).toMatchObject({ dryRun: true, entries: { created: 200 } });
      // at a terminal but with standard error sent to a file: the switch is standard error's, not stdout's
      const err = join(freshDir(), 'stderr.txt');
      const atTerminal = await tolkAtTerminal([...connection(project), '--format', 'json', '--in', input, '--dry-run'], `2> ${quoted(err)}`);
      expect(atTerminal.code, atTerminal.stdout).toBe(0);
      expect(atTerminal.stdout).toMatch(/^Dry run \(nothing written\)/);
      expect(atTerminal.stdout).not.toMatch(PROGRESS);
      expect(readFileSync(err, 'utf8')).toBe('');
    });
  });

  describe("the app's own layouts", () => {
    it('reads locales/<lng>/<ns>.json namespaces and prints a readable table', async () => {
      const target = (await createProject(server, key, { ...languages, keyStyle: 'free' })).id;
      const app = freshDir();
      mkdirSync(join(app, 'public', 'locales', 'en'), { recursive: true });
      mkdirSync(join(app, 'public', 'locales', 'de'), { recursive: true });
      writeFileSync(join(app, 'public', 'locales', 'en', 'common.json'), JSON.stringify({ save: 'Save', files_one: '{{count}} file', files_other: '{{count}} files' }));
      writeFileSync(join(app, 'public', 'locales', 'en', 'nav-bar.json'), JSON.stringify({ home: 'Home', 'Sign out': 'Sign out' }));
      writeFileSync(join(app, 'public', 'locales', 'de', 'common.json'), JSON.stringify({ save: 'Speichern', files_one: '{{count}} Datei', files_other: '{{count}} Dateien', nope: 'x' }));
      const result = await tolk('push', [...connection(target), '--format', 'i18next', '--in', app, '--skip-invalid']);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/Imported from 3 file\(s\)\n  groups +2 new\n  entries +3 new, 0 updated, 0 unchanged\n  translations +2 new/);
      expect(result.stdout).toMatch(/Refused \(1\)\nkey +language +why\n-+ +-+ +-+\nnav-bar\.Sign out +en +the entry name "Sign out" may hold only ASCII letters/);
      expect(result.stdout).toMatch(/Warnings \(1\)\nkey +language +what\n-+ +-+ +-+\ncommon\.nope +de +skipped: no entry has this key/);
      const exported = (await server.api('GET', `/projects/${target}/export/json`, { key })).body;
      expect(exported.en).toEqual({ common: { files: '{count, plural, one {{count} file} other {{count} files}}', save: 'Save' }, 'nav-bar': { home: 'Home' } });
    });

    it("finds the ARB files through l10n.yaml's arb-dir, names app_zh_Hant.arb's locale, and keeps @key metadata", async () => {
      const target = (await createProject(server, key, { baseLanguage: 'en', translationLanguages: ['zh-Hant'], keyStyle: 'free' })).id;
      const app = freshDir();
      mkdirSync(join(app, 'assets', 'i18n'), { recursive: true });
      writeFileSync(join(app, 'l10n.yaml'), 'arb-dir: assets/i18n\ntemplate-arb-file: intl_en.arb\n');
      writeFileSync(join(app, 'assets', 'i18n', 'intl_en.arb'), JSON.stringify({ ok: 'OK', helloName: 'Hello {name}', '@helloName': { placeholders: { name: { type: 'String', example: 'Ann' } } } }));
      writeFileSync(join(app, 'assets', 'i18n', 'intl_zh_Hant.arb'), JSON.stringify({ ok: '好', helloName: '你好 {name}' }));
      const result = await push(target, 'flutter', app);
      expect(result.code, result.stderr).toBe(0);
      expect(result.report.files).toEqual([
        { name: 'intl_en.arb', language: 'en', texts: 2, path: 'assets/i18n/intl_en.arb' },
        { name: 'intl_zh_Hant.arb', language: 'zh-Hant', texts: 2, path: 'assets/i18n/intl_zh_Hant.arb' },
      ]);
      expect(result.report.notRead).toEqual([{ path: 'l10n.yaml', why: "gen-l10n's settings: read for its arb-dir (assets/i18n/)" }]);
      expect(result.report.translations.created).toBe(2);
      const files = await pull(target, 'flutter');
      const template = JSON.parse(readFileSync(join(files, 'app_en.arb'), 'utf8'));
      expect(template).toMatchObject({ ok: 'OK', helloName: 'Hello {name}', '@helloName': { placeholders: { name: { type: 'String', example: 'Ann' } } } });
      expect(JSON.parse(readFileSync(join(files, 'app_zh_Hant.arb'), 'utf8'))).toMatchObject({ '@@locale': 'zh_Hant', ok: '好' });
    });
  });

  describe('vue-i18n', () => {
    it('reads the single file of all languages the export endpoint returns, and unescapes texts', async () => {
      const target = await emptyProject();
      const input = join(freshDir(), 'all.json');
      writeFileSync(input, JSON.stringify({ en: { 'home.greeting': "Hi {'{'}name{'}'} {'@'} {'|'} {'%'} {'\\\\'}{'\\u000D'}" }, de: { 'home.greeting': 'Hallo' } }));
      const result = await push(target, 'vue-i18n', input);
      expect(result.code, result.stderr).toBe(0);
      expect(result.report).toMatchObject({ groups: { created: 1 }, entries: { created: 1 }, translations: { created: 1 } });
      const exported = (await server.api('GET', `/projects/${target}/export/json`, { key })).body;
      // the literal braces are ICU-quoted, so the stored message renders the text the vue file rendered
      expect(exported.en).toEqual({ home: { greeting: "Hi '{name} @ | % \\\r'" } });
      expect(exported.de).toEqual({ home: { greeting: 'Hallo' } });
    });

    it('reads nested files, placeholders and pipe plurals as ICU messages', async () => {
      const target = await emptyProject();
      const dir = freshDir();
      writeFileSync(join(dir, 'en.json'), JSON.stringify({ home: { greeting: 'Hi {name}', files: 'no files | {n} file | {n} files' } }));
      const result = await push(target, 'vue-i18n', dir);
      expect(result.code, result.stderr).toBe(0);
      const exported = (await server.api('GET', `/projects/${target}/export/json`, { key })).body;
      expect(exported.en.home).toEqual({ greeting: 'Hi {name}', files: '{n, plural, =0 {no files} one {# file} other {# files}}' });
    });

    it('refuses pipe forms that fit no plural of the language: exit 1, every refused key listed, nothing written', async () => {
      const target = await emptyProject();
      const etag = await etagOf(target);
      const dir = freshDir();
      writeFileSync(join(dir, 'en.json'), JSON.stringify({ 'home.greeting': 'a | b | c | d', 'home.ok': 'OK', 'home.fine': 'Fine' }));
      const result = await tolk('push', [...connection(target), '--format', 'vue-i18n', '--in', dir]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('Nothing imported');
      expect(result.stdout).toMatch(/en:home\.greeting +4 pipe forms fit no plural/);
      expect(result.stdout).toMatch(/en:home\.ok +the entry name "ok" must be 4–100 characters/);
      expect(await etagOf(target)).toBe(etag);
    });
  });

  describe('flutter', () => {
    it('maps keys to existing entries, new keys to a group by their first word, and takes descriptions as contextInfo', async () => {
      const original = await pull(seededId, 'flutter');
      const target = await emptyProject();
      const result = await push(target, 'flutter', original);
      expect(result.code, result.stderr).toBe(0);
      // app_pt.arb is the fallback file gen-l10n wants beside app_pt_BR.arb: not refused, not imported
      expect(result.report.refused).toEqual([]);
      expect(result.report.groups.created).toBe(2);
      const groups = (await server.api('GET', `/projects/${target}/groups`, { key })).body.result;
      expect(groups.map((group: any) => group.technicalName)).toEqual(['auth', 'support']);
      const auth = groups.find((group: any) => group.technicalName === 'auth');
      const entries = (await server.api('GET', `/groups/${auth.id}/entries`, { key })).body.result;
      expect(entries.map((entry: any) => entry.technicalName).sort()).toEqual(['loginSubmit', 'title']);
      expect(entries.find((entry: any) => entry.technicalName === 'loginSubmit').contextInfo).toBe('Button of the login form');

      // into the seeded tree, keys land on the existing entries: a changed description is an update (overwrite), nothing else
      const template = JSON.parse(readFileSync(join(original, 'app_en.arb'), 'utf8'));
      template['@authLoginSubmit'].description = 'The sign-in button';
      template.authLoginSubmitAgain = 'Sign in again';
      writeFileSync(join(original, 'app_en.arb'), JSON.stringify(template));
      const dry = await push(seededId, 'flutter', original, ['--dry-run', '--mode', 'overwrite']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.report).toMatchObject({ groups: { created: 0 }, entries: { created: 1, updated: 0 }, translations: { created: 0, updated: 0 } });
    });

    it('places a key that fits no group at the top level, refuses a key too short for that, and skips a translated key with no entry (a warning)', async () => {
      const target = await emptyProject();
      const dir = freshDir();
      writeFileSync(join(dir, 'app_en.arb'), JSON.stringify({ '@@locale': 'en', homeGreeting: 'Hi', ok: 'OK', homeOk: 'OK' }));
      writeFileSync(join(dir, 'app_de.arb'), JSON.stringify({ '@@locale': 'de', homeGreeting: 'Hallo', homeFarewell: 'Tschüss' }));
      const result = await push(target, 'flutter', dir, ['--skip-invalid']);
      expect(result.code).toBe(1);
      expect(result.report.entries.created).toBe(2);
      expect(result.report.refused.map((item: any) => `${item.language}:${item.key}`)).toEqual(['en:ok']);
      expect(result.report.warnings).toContainEqual({ key: 'homeFarewell', language: 'de', message: expect.stringContaining('no entry has this key') });
      const arb = await untar(Buffer.from(await (await fetch(`${server.baseUrl}/projects/${target}/export/flutter`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer()));
      expect(Object.keys(JSON.parse(arb.get('app_en.arb')!)).filter((name) => !name.startsWith('@'))).toEqual(['homeGreeting', 'homeOk']);
    });
  });

  describe('json', () => {
    it('keeps differing texts as conflicts, and --mode overwrite replaces them', async () => {
      const original = await pull(seededId, 'json');
      const target = await emptyProject();
      expect((await push(target, 'json', join(original, 'messages.json'))).code).toBe(0);
      const document = JSON.parse(readFileSync(join(original, 'messages.json'), 'utf8'));
      document.en.auth.title = 'Hello 👋';
      document.de.support.mail = 'Schreiben Sie an help@example.com';
      document['pt-BR'].auth.title = 'Olá';
      const changed = join(freshDir(), 'messages.json');
      writeFileSync(changed, JSON.stringify(document));
      const kept = await push(target, 'json', changed);
      expect(kept.code, kept.stderr).toBe(0);
      expect(kept.report.conflicts).toEqual([
        { key: 'auth.title', language: 'en', stored: 'Welcome 👋', imported: 'Hello 👋' },
        { key: 'support.mail', language: 'de', stored: 'Schreib an help@example.com', imported: 'Schreiben Sie an help@example.com' },
      ]);
      expect(kept.report.translations.created).toBe(1);
      const result = await push(target, 'json', changed, ['--mode', 'overwrite']);
      expect(result.report).toMatchObject({ entries: { updated: 1 }, translations: { created: 0, updated: 1 }, conflicts: [] });
      const exported = JSON.parse(readFileSync(join(await pull(target, 'json'), 'messages.json'), 'utf8'));
      expect(exported).toEqual(document);
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
      ['a known --mode', ['--format', 'json', '--in', 'x', '--mode', 'merge'], '--mode must be keep or overwrite'],
    ])('without %s: exit 1 before any request, nothing on stdout', async (_label, args, reason) => {
      const result = await tolk('push', [...connection('p'), ...args]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(reason);
    });

    it('refuses input that is not in the format\'s shape: every item listed, nothing written', async () => {
      const target = await emptyProject();
      const etag = await etagOf(target);
      const input = join(freshDir(), 'messages.json');
      writeFileSync(input, JSON.stringify({ en: { home: { greeting: 42, title: 'Title', abc: 'too short a name' } } }));
      const result = await tolk('push', [...connection(target), '--format', 'json', '--in', input]);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/en:home\.greeting +is a number, not text or an object/);
      expect(result.stdout).toMatch(/en:home\.abc +the entry name "abc" must be 4–100 characters/);
      expect(await etagOf(target)).toBe(etag);
    });

    it('a folder without the files: exit 1 naming where it looked', async () => {
      const result = await tolk('push', [...connection('p'), '--format', 'i18next', '--in', freshDir()]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('holds no <lng>/<namespace>.json');
    });
  });
});
