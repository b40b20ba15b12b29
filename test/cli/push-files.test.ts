/**
 * `tolk push` accounts for every file under `--in` (CONTRACT "Import": nothing is skipped silently): it
 * walks the layout's folder, prints the files the server read (with their texts) and every other file
 * with why it was not read (its own reasons, and the server's refusals naming a file), and exits 1 when
 * no file was read. The built CLI runs, since what is tested is what reaches stdout, stderr and the exit code.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

function tolkPush(args: string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['TOLK_URL', 'TOLK_API_KEY', 'CI']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [TOLK_BIN, 'push', ...args], { cwd: tmpdir(), env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** A folder holding `files` (path → text; an object is written as JSON). */
function folder(files: Record<string, string | object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tolk-push-files-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

/** The rows of the table under `title` (its heading, column names and rule left out). */
function rows(stdout: string, title: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${title} (`));
  if (start === -1) return [];
  const end = lines.findIndex((line, index) => index > start && line === '');
  return lines.slice(start + 3, end === -1 ? undefined : end).map((line) => line.replace(/ {2,}/g, ' | '));
}

describe.each(DIALECTS)('tolk push accounts for every file on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let url: string;
  const push = (project: string, format: string, input: string, extra: string[] = []) =>
    tolkPush(['--url', url, '--key', key, '--project', project, '--format', format, '--in', input, ...extra]);
  const project = async (translationLanguages = ['de']) => (await createProject(server, key, { baseLanguage: 'en', translationLanguages, keyStyle: 'free' })).id as string;

  beforeAll(async () => {
    server = await startServer(dialect);
    url = server.baseUrl.replace(/\/api\/v1$/, '');
    key = (await server.user()).apiKey;
  });
  afterAll(() => server?.close());

  it("i18next app: reads the namespaces in sub-folders and lists every other file with why; installed packages, hidden folders and links not entered", async () => {
    const app = folder({
      'package.json': { name: 'app' },
      'public/locales/en/common.json': { save: 'Save', cancel: 'Cancel' },
      'public/locales/en/components/dialog.json': { title: 'Dialog', close: 'Close' },
      'public/locales/de/common.json': { save: 'Speichern' },
      'public/locales/de/components/dialog.json': { title: 'Dialog' },
      'public/locales/README.md': '# translations',
      'public/locales/index.ts': 'export {}',
      'public/locales/.DS_Store': 'x',
      'public/locales/xx/common.json': { save: '?' },
      'public/locales/node_modules/pkg/en/common.json': { save: 'Save' },
      'public/locales/.git/HEAD': 'ref: refs/heads/main',
    });
    symlinkSync(join(app, 'public/locales/en'), join(app, 'public/locales/en-GB'));
    const target = await project();
    const result = await push(target, 'i18next', app);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Imported from 4 file\(s\)\n/);
    expect(rows(result.stdout, 'Files read')).toEqual([
      'public/locales/de/common.json | de | 1',
      'public/locales/de/components/dialog.json | de | 1',
      'public/locales/en/common.json | en | 2',
      'public/locales/en/components/dialog.json | en | 2',
    ]);
    expect(rows(result.stdout, 'Files not read').sort()).toEqual([
      // every file under --in: the app's own files outside the layout's folder too
      'package.json | outside public/locales/, where the i18next files are',
      'public/locales/.DS_Store | a hidden file',
      'public/locales/.git/ | git\'s own files: not looked into',
      'public/locales/README.md | outside the language folders: i18next reads <lng>/<namespace>.json',
      'public/locales/en-GB | a symbolic link: not followed',
      'public/locales/index.ts | outside the language folders: i18next reads <lng>/<namespace>.json',
      'public/locales/node_modules/ | installed packages: not looked into',
      'public/locales/xx/common.json | "xx" is no language tag: i18next reads <lng>/<namespace>.json',
    ]);
    const exported = (await server.api('GET', `/projects/${target}/export/json`, { key })).body;
    expect(exported.en).toEqual({ common: { cancel: 'Cancel', save: 'Save' }, 'components/dialog': { close: 'Close', title: 'Dialog' } });
    expect(exported.de.common.save).toBe('Speichern');

    // --json: the server's files with the path each came from, and the files not read
    const json = JSON.parse((await push(target, 'i18next', app, ['--json', '--dry-run'])).stdout);
    expect(json.files).toContainEqual({ name: 'en/components/dialog.json', language: 'en', texts: 2, path: 'public/locales/en/components/dialog.json' });
    expect(json.totals.files).toBe(4);
    expect(json.notRead).toContainEqual({ path: 'public/locales/xx/common.json', why: '"xx" is no language tag: i18next reads <lng>/<namespace>.json' });
    expect(json.notRead).toHaveLength(8);
  });

  it('vue-i18n: a file of a language the project lacks is named with why, as is a name that is no language tag', async () => {
    const dir = folder({ 'en.json': { home: { title: 'Home' } }, 'de.json': { home: { title: 'Start' } }, 'fr.json': { home: { title: 'Accueil' } }, 'unknown.json': {}, 'notes.txt': 'x' });
    const result = await push(await project(), 'vue-i18n', dir, ['--skip-invalid']);
    expect(result.code).toBe(1); // fr refused
    expect(rows(result.stdout, 'Files read')).toEqual(['de.json | de | 1', 'en.json | en | 1']);
    expect(rows(result.stdout, 'Files not read')).toEqual([
      'notes.txt | not a .json file',
      'unknown.json | "unknown" is no language tag: vue-i18n reads <lang>.json files',
      'fr.json (fr) | fr is not a language of the project (base en, translations de): its 1 text(s) are not imported',
    ]);
  });

  it('a folder holding no file of the format: exit 1 naming where it looked, every file found listed with why', async () => {
    const dir = folder({ 'README.md': '# app', 'en.txt': 'Hello', 'sub/notes.json': {} });
    const result = await push('p', 'i18next', dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/holds no <lng>\/<namespace>\.json or <lang>\.json \(looked in it, in locales\/ and in public\/locales\/\)\n$/);
    expect(rows(result.stdout, 'Files not read')).toEqual([
      'README.md | not a .json file',
      'en.txt | not a .json file',
      'sub/notes.json | in a folder that is no language: i18next reads <lng>/<namespace>.json or <lang>.json',
    ]);
  });

  it('exit 1 when the server read none of the files sent, each listed with the server\'s why', async () => {
    const dir = folder({ 'app_en.arb': '{"@@locale": "en", "title": ', 'app_de.arb': '["not", "an", "object"]' });
    const result = await push(await project(), 'flutter', dir, ['--dry-run']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('tolk push: the server read none of the 2 file(s) sent (see "Files not read")\n');
    expect(result.stdout).toMatch(/^Dry run \(nothing written\) from 0 file\(s\)\n/);
    expect(rows(result.stdout, 'Files not read')).toEqual([
      expect.stringMatching(/^app_de\.arb \| must hold an object, not an array; not read$/),
      expect.stringMatching(/^app_en\.arb \| not JSON, not read: /),
    ]);
  });
});
