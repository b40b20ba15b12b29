import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import i18next from 'i18next';
import FsBackend from 'i18next-fs-backend';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';
import { VUE_I18N_VERSIONS, vueI18nT } from '../helpers/consumers.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createGroup, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** `tolk pull …` in `cwd`, with only the given TOLK_ variables (none inherited, no CI, no TTY). */
function pull(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  for (const name of ['TOLK_URL', 'TOLK_API_KEY', 'CI']) if (!options.env?.[name]) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [TOLK_BIN, 'pull', ...args], { cwd: options.cwd ?? tmpdir(), env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const freshDir = () => mkdtempSync(join(tmpdir(), 'tolk-pull-'));
/** Every file under `dir`, relative, sorted. */
const tree = (dir: string) => (existsSync(dir) ? (readdirSync(dir, { recursive: true, withFileTypes: true }) as any[]) : [])
  .filter((entry) => entry.isFile())
  .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(dir.length + 1))
  .sort();
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

/** The URL of a loopback port nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** A .tar.gz with the given members, for a fake server. */
async function tarGz(members: { name: string; content?: string; type?: 'file' | 'symlink'; linkname?: string }[]): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => archive.on('end', () => resolve()));
  for (const member of members) archive.entry({ name: member.name, type: member.type ?? 'file', linkname: member.linkname }, member.content ?? '');
  archive.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** A server that answers every request with the archive, as a hostile or broken tolk would. */
async function serveArchive(body: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/gzip', etag: '"evil"' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.each(DIALECTS)('tolk pull on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let projectId: string;
  let submitId: string;
  let url: string;
  const base = () => ['--url', url, '--key', key, '--project', projectId];

  beforeAll(async () => {
    server = await startServer(dialect);
    url = server.baseUrl.replace(/\/api\/v1$/, '');
    key = (await server.user()).apiKey;
    const project = await createProject(server, key, { baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'] });
    projectId = project.id;
    const auth = await createGroup(server, key, projectId, 'auth');
    const login = await createGroup(server, key, projectId, 'login', auth.id);
    const submit = await createEntry(server, key, login.id, 'submit', 'Sign in');
    submitId = submit.id;
    const title = await createEntry(server, key, auth.id, 'title', 'Welcome');
    await setTranslation(server, key, submit.id, 'de', 'Anmelden');
    await setTranslation(server, key, title.id, 'de', 'Willkommen');
    await setTranslation(server, key, submit.id, 'pt-BR', 'Entrar');
    // pt-BR has no title: the export falls back to the base term
  });
  afterAll(() => server?.close());

  it('i18next: writes <lang>/translation.json that i18next-fs-backend loads, fallback included', async () => {
    const out = freshDir();
    const result = await pull([...base(), '--format', 'i18next', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ changed: true, format: 'i18next', files: ['de/translation.json', 'en/translation.json', 'pt-BR/translation.json'] });
    expect(summary.etag).toMatch(/^"[^"]+"$/);
    expect(summary.bytes).toBeGreaterThan(0);
    const i18n = i18next.createInstance();
    await i18n.use(FsBackend).init({ lng: 'en', preload: ['en', 'de', 'pt-BR'], backend: { loadPath: join(out, '{{lng}}/{{ns}}.json') } });
    expect(i18n.t('auth.login.submit', { lng: 'de' })).toBe('Anmelden');
    expect(i18n.t('auth.title', { lng: 'pt-BR' })).toBe('Welcome');
    expect(i18n.t('auth.login.submit', { lng: 'pt-BR' })).toBe('Entrar');
  });

  it.each(VUE_I18N_VERSIONS)('vue-i18n: writes one <lang>.json per locale that %s takes as messages', async (version) => {
    const out = freshDir();
    const result = await pull([...base(), '--format', 'vue-i18n', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).files).toEqual(['de.json', 'en.json', 'pt-BR.json']);
    const messages = Object.fromEntries(['en', 'de', 'pt-BR'].map((language) => [language, readJson(join(out, `${language}.json`))]));
    expect(vueI18nT(version, false, messages, 'de')('auth.login.submit')).toBe('Anmelden');
    expect(vueI18nT(version, true, messages, 'pt-BR')('auth.title')).toBe('Welcome');
  });

  it('prints one warning per message its format cannot say natively, and still exits 0', async () => {
    const project = await createProject(server, key, { baseLanguage: 'en', translationLanguages: ['de'] });
    const group = await createGroup(server, key, project.id, 'shop');
    await createEntry(server, key, group.id, 'genderText', '{g, select, female {She} other {They}}');
    await createEntry(server, key, group.id, 'fileCount', '{count, plural, one {# file} other {# files}}');
    const args = ['--url', url, '--key', key, '--project', project.id];
    const i18nextPull = await pull([...args, '--format', 'i18next', '--out', freshDir()]);
    expect(i18nextPull.code, i18nextPull.stderr).toBe(0);
    const lines = i18nextPull.stderr.trim().split('\n');
    // the select, in the base language and as the German fallback; the plural on count is native
    expect(lines).toEqual([expect.stringMatching(/^warning: shop\.genderText \(en\): i18next cannot say/), expect.stringMatching(/^warning: shop\.genderText \(de\): .*fallback/)]);
    const flutterPull = await pull([...args, '--format', 'flutter', '--out', freshDir()]);
    expect(flutterPull.code).toBe(0);
    expect(flutterPull.stderr).toBe('');
    const jsonPull = await pull([...args, '--format', 'json', '--out', freshDir()]);
    expect(jsonPull.stderr).toBe('');
  });

  it('flutter: writes app_<lang>.arb files for gen-l10n with @@locale and camelCase keys', async () => {
    const out = freshDir();
    const result = await pull([...base(), '--format', 'flutter', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    // app_pt.arb: gen-l10n needs the bare language beside a regional one (CONTRACT.md)
    expect(JSON.parse(result.stdout).files).toEqual(['app_de.arb', 'app_en.arb', 'app_pt.arb', 'app_pt_BR.arb']);
    const german = readJson(join(out, 'app_de.arb'));
    expect(german['@@locale']).toBe('de');
    expect(german.authLoginSubmit).toBe('Anmelden');
    expect(readJson(join(out, 'app_pt_BR.arb')).authTitle).toBe('Welcome');
  });

  it('json: writes the nested document as messages.json; --pretty pretty-prints it', async () => {
    const out = freshDir();
    const result = await pull([...base(), '--format', 'json', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(tree(out)).toEqual(['.tolk-pull.json', 'messages.json']);
    const document = readJson(join(out, 'messages.json'));
    expect(document.de.auth.login.submit).toBe('Anmelden');
    expect(document['pt-BR'].auth.title).toBe('Welcome');
    expect(readFileSync(join(out, 'messages.json'), 'utf8')).not.toContain('\n');

    // a changed pretty setting does not reuse the stored ETag
    const pretty = await pull([...base(), '--format', 'json', '--out', out, '--pretty']);
    expect(JSON.parse(pretty.stdout).changed).toBe(true);
    expect(readFileSync(join(out, 'messages.json'), 'utf8')).toContain('\n  "en": {');
  });

  it('a second pull of unchanged content answers changed: false and touches nothing; a change is pulled next time', async () => {
    const out = freshDir();
    const args = [...base(), '--format', 'i18next', '--out', out];
    const first = JSON.parse((await pull(args)).stdout);
    const state = readJson(join(out, '.tolk-pull.json'));
    expect(state).toMatchObject({ etag: first.etag, format: 'i18next', pretty: false, project: projectId, url });
    const before = statSync(join(out, 'de/translation.json')).mtimeMs;

    const second = await pull(args);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ changed: false, files: [], bytes: 0, etag: first.etag });
    expect(statSync(join(out, 'de/translation.json')).mtimeMs).toBe(before);

    await setTranslation(server, key, submitId, 'de', 'Einloggen');
    const third = JSON.parse((await pull(args)).stdout);
    expect(third.changed).toBe(true);
    expect(third.etag).not.toBe(first.etag);
    expect(readJson(join(out, 'de/translation.json')).auth.login.submit).toBe('Einloggen');
    await setTranslation(server, key, submitId, 'de', 'Anmelden');
  });

  it('downloads again when a file of the last pull is missing, or the format differs', async () => {
    const out = freshDir();
    await pull([...base(), '--format', 'vue-i18n', '--out', out]);
    const again = JSON.parse((await pull([...base(), '--format', 'json', '--out', out])).stdout);
    expect(again.changed).toBe(true);
    rmSync(join(out, 'messages.json'));
    const restored = JSON.parse((await pull([...base(), '--format', 'json', '--out', out])).stdout);
    expect(restored.changed).toBe(true);
    expect(existsSync(join(out, 'messages.json'))).toBe(true);
  });

  it('takes options from tolk.json, env over tolk.json, flags over env', async () => {
    const cwd = freshDir();
    writeFileSync(join(cwd, 'tolk.json'), JSON.stringify({ url, project: projectId, format: 'json', out: 'locales', apiKey: 'tolk_wrong' }));
    const fromFileAndEnvKey = await pull([], { cwd, env: { TOLK_API_KEY: key } });
    expect(fromFileAndEnvKey.code, fromFileAndEnvKey.stderr).toBe(0);
    expect(readJson(join(cwd, 'locales/messages.json')).de.auth.title).toBe('Willkommen');

    const closed = await closedPortUrl();
    const envUrlWins = await pull([], { cwd, env: { TOLK_API_KEY: key, TOLK_URL: closed } });
    expect(envUrlWins.code).toBe(1);
    expect(envUrlWins.stderr).toBe(`tolk: cannot reach ${closed}: ECONNREFUSED\n`);

    const flagsWin = await pull(['--url', url, '--format', 'vue-i18n', '--key', key], { cwd, env: { TOLK_API_KEY: 'tolk_wrong', TOLK_URL: closed } });
    expect(flagsWin.code, flagsWin.stderr).toBe(0);
    expect(existsSync(join(cwd, 'locales/de.json'))).toBe(true);

    writeFileSync(join(cwd, 'tolk.json'), JSON.stringify({ url, project: projectId, format: 'json', out: 'pretty', pretty: true }));
    await pull([], { cwd, env: { TOLK_API_KEY: key } });
    expect(readFileSync(join(cwd, 'pretty/messages.json'), 'utf8')).toContain('\n  "en": {');
    await pull(['--no-pretty'], { cwd, env: { TOLK_API_KEY: key } });
    expect(readFileSync(join(cwd, 'pretty/messages.json'), 'utf8')).not.toContain('\n');

    writeFileSync(join(cwd, 'tolk.json'), JSON.stringify({ url, project: projectId, format: 'json', out: 'locales', apiKey: 'tolk_wrong' }));
    const fileKeyOnly = await pull([], { cwd });
    expect(fileKeyOnly.code).toBe(1);
    expect(fileKeyOnly.stderr.trim()).toMatch(/^tolk: ERR_UNAUTHORIZED: /);
  });

  it.each([
    ['--url', ['--key', 'k', '--project', 'p', '--format', 'json', '--out', 'x'], 'missing --url (or env TOLK_URL, or "url" in tolk.json)'],
    ['--key', ['--url', 'http://127.0.0.1:9', '--project', 'p', '--format', 'json', '--out', 'x'], 'missing --key (or env TOLK_API_KEY, or "apiKey" in tolk.json)'],
    ['--project', ['--url', 'http://127.0.0.1:9', '--key', 'k', '--format', 'json', '--out', 'x'], 'missing --project (or "project" in tolk.json)'],
    ['--out', ['--url', 'http://127.0.0.1:9', '--key', 'k', '--project', 'p', '--format', 'json'], 'missing --out (or "out" in tolk.json)'],
    ['a valid --format', ['--url', 'http://127.0.0.1:9', '--key', 'k', '--project', 'p', '--format', 'yaml', '--out', 'x'], '--format must be one of'],
  ])('without %s: exit 1, nothing on stdout, a reason naming where it can come from', async (_label, args, reason) => {
    const result = await pull(args, { cwd: freshDir() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(reason);
  });

  it('a wrong key: exit 1 with ERR_UNAUTHORIZED, nothing written', async () => {
    const out = join(freshDir(), 'out');
    const result = await pull(['--url', url, '--key', 'tolk_not_a_key', '--project', projectId, '--format', 'i18next', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^tolk: ERR_UNAUTHORIZED: .+\n$/);
    expect(existsSync(out)).toBe(false);
  });

  it('an unknown project: exit 1 with ERR_PROJECT_NOT_FOUND', async () => {
    const result = await pull(['--url', url, '--key', key, '--project', 'nope', '--format', 'json', '--out', freshDir()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tolk: ERR_PROJECT_NOT_FOUND: /);
  });

  it.each([
    ['a ../ member', [{ name: 'de/translation.json', content: '{}' }, { name: '../evil', content: 'pwned' }], '".." segment'],
    ['an absolute member', [{ name: 'de/translation.json', content: '{}' }, { name: '/tmp/tolk-evil-absolute', content: 'pwned' }], 'absolute path'],
    ['a symlink member', [{ name: 'link', type: 'symlink' as const, linkname: '/etc/passwd' }, { name: 'link/x', content: 'pwned' }], 'symlink'],
  ])('refuses an archive with %s and writes nothing at all', async (_label, members, reason) => {
    const fake = await serveArchive(await tarGz(members));
    try {
      const parent = freshDir();
      const out = join(parent, 'out');
      mkdirSync(out);
      const result = await pull(['--url', fake.url, '--key', 'k', '--project', 'p', '--format', 'i18next', '--out', out]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('refused archive member');
      expect(result.stderr).toContain(reason);
      expect(tree(parent)).toEqual([]);
      expect(existsSync('/tmp/tolk-evil-absolute')).toBe(false);
    } finally {
      fake.server.close();
    }
  });

  it('refuses to write through a link already in the output directory, and a name used as file and directory', async () => {
    const outside = freshDir();
    const out = freshDir();
    symlinkSync(outside, join(out, 'de'));
    const linked = await serveArchive(await tarGz([{ name: 'en/translation.json', content: '{}' }, { name: 'de/translation.json', content: 'pwned' }]));
    const clashing = await serveArchive(await tarGz([{ name: 'en', content: '{}' }, { name: 'en/translation.json', content: '{}' }]));
    try {
      const throughLink = await pull(['--url', linked.url, '--key', 'k', '--project', 'p', '--format', 'i18next', '--out', out]);
      expect(throughLink.code).toBe(1);
      expect(throughLink.stderr).toBe('tolk: refused to write "de/translation.json": "de" is not a directory\n');
      expect(tree(outside)).toEqual([]);
      expect(existsSync(join(out, 'en'))).toBe(false);
      const clash = await pull(['--url', clashing.url, '--key', 'k', '--project', 'p', '--format', 'i18next', '--out', freshDir()]);
      expect(clash.code).toBe(1);
      // refused by name now (file-layout.ts), before write-files.ts's own check of the clash
      expect(clash.stderr).toBe('tolk: refused archive member "en": not a file of the i18next export (<lang>/translation.json)\n');
    } finally {
      linked.server.close();
      clashing.server.close();
    }
  });

  it('an unreachable server: exit 1 with a clear reason, nothing written', async () => {
    const out = join(freshDir(), 'out');
    const closed = await closedPortUrl();
    const result = await pull(['--url', closed, '--key', key, '--project', projectId, '--format', 'json', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`tolk: cannot reach ${closed}: ECONNREFUSED\n`);
    expect(existsSync(out)).toBe(false);
  });
});
