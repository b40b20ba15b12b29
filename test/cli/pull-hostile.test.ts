/**
 * `tolk pull` against a hostile (or compromised) server: it writes only the format's own files, reads
 * at most --max-bytes, and prints nothing the terminal would take as a control sequence. The server is
 * a tiny node:http one; most cases call pull() in this process (spawning would prove nothing more), the
 * few where the exit code and stderr matter run the built CLI.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack, type Header } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pull } from '../../src/cli/pull/pull.js';
import { resolvePullOptions, type PullOptions } from '../../src/cli/pull/options.js';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';

/** What a terminal takes as the start of a control sequence, or an invisible reordering of the line. */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE_TEXT = 'bad \u001b]0;pwned\u0007 \u001b[31mred\u009b2J \u202etxt.exe';

type Member = Partial<Header> & { name: string; content?: Buffer | string };

async function tarGz(members: Member[]): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => archive.on('end', () => resolve()));
  for (const { content, ...header } of members) archive.entry({ type: 'file', ...header }, content ?? '');
  archive.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

const freshDir = () => mkdtempSync(join(tmpdir(), 'tolk-pull-hostile-'));
/** Every entry under `dir` (files, links, directories), relative, sorted. */
const tree = (dir: string) =>
  (readdirSync(dir, { recursive: true, withFileTypes: true }) as any[]).map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(dir.length + 1)).sort();

/** The bytes an endless body had sent when its client went away, by case. */
const sentBeforeClose = new Map<string, Promise<number>>();
/** Far past any --max-bytes of these tests: on a CLI without a cap the "endless" body ends here. */
const ENDLESS_BOUND = 256 * 1024 * 1024;

function endless(name: string, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/gzip' });
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  let sent = 0;
  sentBeforeClose.set(name, new Promise((resolve) => response.on('close', () => resolve(sent))));
  const write = () => {
    while (sent < ENDLESS_BOUND && !response.destroyed) {
      sent += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', write);
    }
    response.end();
  };
  write();
}

type Route = (response: ServerResponse, request: IncomingMessage) => void | Promise<void>;
const archive = (members: Member[]): Route => async (response) => {
  const body = await tarGz(members);
  response.writeHead(200, { 'content-type': 'application/gzip', etag: '"hostile"' });
  response.end(body);
};
const json = (status: number, body: unknown): Route => (response) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};
const VALID = { name: 'en/translation.json', content: '{"a":"b"}' };

/** The hostile server's answers, by project id (`/projects/{id}/export/…` and `/projects/{id}/checks`). */
const routes: Record<string, Route> = {
  'dot-git': archive([VALID, { name: '.git/config', content: '[core]\n\tfsmonitor = "touch /tmp/pwned"\n' }]),
  'parent': archive([VALID, { name: '../escape.json', content: '{}' }]),
  'absolute': archive([VALID, { name: '/tmp/tolk-hostile-absolute.json', content: '{}' }]),
  'symlink': archive([VALID, { name: 'de/translation.json', type: 'symlink', linkname: '/etc/passwd' }]),
  'hardlink': archive([VALID, { name: 'de/translation.json', type: 'link', linkname: 'en/translation.json' }]),
  'device': archive([VALID, { name: 'de/translation.json', type: 'character-device', devmajor: 1, devminor: 3 }]),
  'not-json': archive([VALID, { name: 'en/translation.js', content: 'alert(1)' }]),
  'hidden-file': archive([VALID, { name: 'en/.translation.json', content: '{}' }]),
  'hidden-dir': archive([VALID, { name: 'en/.cache/', type: 'directory' }]),
  'odd-characters': archive([VALID, { name: 'en/trans lation.json', content: '{}' }]),
  'root-file': archive([VALID, { name: 'package.json', content: '{"scripts":{"postinstall":"touch /tmp/pwned"}}' }]),
  'other-namespace': archive([VALID, { name: 'en/common.json', content: '{}' }]),
  'namespaces': archive([VALID, { name: 'de/components/dialog.json', content: '{}' }, { name: 'pt-BR/common.json', content: '{}' }, { name: 'zh-Hant-TW/x_y-z.json', content: '{}' }]),
  'namespace-escape': archive([VALID, { name: 'en/components/../../x.json', content: '{}' }]),
  'flutter': archive([{ name: 'app_de.arb', content: '{}' }, { name: 'app_pt_BR.arb', content: '{}' }, { name: 'app_zh_Hant_TW.arb', content: '{}' }, { name: 'app_es_419.arb', content: '{}' }]),
  'flutter-extra': archive([{ name: 'app_de.arb', content: '{}' }, { name: 'l10n.yaml', content: 'arb-dir: /' }]),
  'flutter-nested': archive([{ name: 'app_de.arb', content: '{}' }, { name: 'lib/app_en.arb', content: '{}' }]),
  'vue-package': json(200, { en: { a: 'b' }, package: { scripts: { postinstall: 'touch /tmp/pwned' } } }),
  'vue-dot': json(200, { en: { a: 'b' }, '.eslintrc': {} }),
  'bomb': archive([VALID, { name: 'de/translation.json', content: Buffer.alloc(32 * 1024 * 1024) }]),
  'endless': (response) => endless('endless', response),
  'error-escapes': json(400, { code: 'ERR_VALIDATION', message: HOSTILE_TEXT }),
  'checks-escapes': archive([VALID]),
};

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const [, project = '', route] = /^\/api\/v1\/projects\/([^/?]+)\/(export|checks)/.exec(request.url ?? '') ?? [];
    if (route === 'checks') {
      const hostile = project === 'checks-escapes';
      return json(200, { total: hostile ? 1 : 0, result: hostile ? [{ key: `a${HOSTILE_TEXT}`, language: 'en\u001b[2J', message: HOSTILE_TEXT }] : [] })(response, request);
    }
    const answer = routes[decodeURIComponent(project)];
    if (!answer) return json(404, { code: 'ERR_PROJECT_NOT_FOUND', message: 'no such case' })(response, request);
    void answer(response, request);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const MIB = 1024 * 1024;
const options = (project: string, out: string, extra: Partial<PullOptions> = {}): PullOptions => ({
  url, apiKey: 'k', project, format: 'i18next', out, pretty: false, quiet: true, namespaces: false, maxBytes: MIB, ...extra,
});

/** `tolk pull` as a user runs it, with no TOLK_ variables or CI inherited. */
function pullCli(args: string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['TOLK_URL', 'TOLK_API_KEY', 'CI']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [TOLK_BIN, 'pull', '--url', url, '--key', 'k', ...args], { cwd: tmpdir(), env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('tolk pull refuses, by name, every file that is not its format\'s own, and writes nothing then', () => {
  it.each([
    ['.git/config', 'dot-git', {}, /refused archive member "\.git\/config": not a file of the i18next export \(<lang>\/translation\.json\)/],
    ['../escape.json', 'parent', {}, /refused archive member "\.\.\/escape\.json": it contains a "\.\." segment/],
    ['an absolute path', 'absolute', {}, /refused archive member "\/tmp\/tolk-hostile-absolute\.json": it is an absolute path/],
    ['a symlink', 'symlink', {}, /refused archive member "de\/translation\.json": it is a symlink/],
    ['a hard link', 'hardlink', {}, /refused archive member "de\/translation\.json": it is a link/],
    ['a device', 'device', {}, /refused archive member "de\/translation\.json": it is a character-device/],
    ['a .js file', 'not-json', {}, /refused archive member "en\/translation\.js": not a file of the i18next export/],
    ['a dot-file', 'hidden-file', {}, /refused archive member "en\/\.translation\.json": not a file/],
    ['a dot-directory', 'hidden-dir', {}, /refused archive member "en\/\.cache\/": not a directory of the i18next export/],
    ['a name with a space', 'odd-characters', {}, /refused archive member "en\/trans lation\.json": not a file/],
    ['package.json', 'root-file', {}, /refused archive member "package\.json": not a file of the i18next export/],
    ['a namespace file without --namespaces', 'other-namespace', {}, /refused archive member "en\/common\.json": not a file of the i18next export \(<lang>\/translation\.json\)/],
    ['a namespace with ".."', 'namespace-escape', { namespaces: true }, /refused archive member "en\/components\/\.\.\/\.\.\/x\.json": it contains a "\.\." segment/],
    ['flutter: l10n.yaml', 'flutter-extra', { format: 'flutter' }, /refused archive member "l10n\.yaml": not a file of the flutter export \(app_<locale>\.arb\)/],
    ['flutter: an ARB file in a folder', 'flutter-nested', { format: 'flutter' }, /refused archive member "lib\/app_en\.arb": not a file of the flutter export/],
    ['vue-i18n: a language "package"', 'vue-package', { format: 'vue-i18n' }, /refused "package\.json": not a file of the vue-i18n export \(<lang>\.json\)/],
    ['vue-i18n: a language ".eslintrc"', 'vue-dot', { format: 'vue-i18n' }, /refused "\.eslintrc\.json": not a file of the vue-i18n export/],
  ] as const)('%s', async (_label, project, extra, reason) => {
    const parent = freshDir();
    const out = join(parent, 'out');
    mkdirSync(out);
    await expect(pull(options(project, out, extra as Partial<PullOptions>))).rejects.toThrow(reason);
    expect(tree(parent)).toEqual(['out']);
    expect(existsSync('/tmp/tolk-hostile-absolute.json')).toBe(false);
  });

  it('as the user sees it: one line on stderr naming the member, exit 1, no stack trace', async () => {
    const parent = freshDir();
    const result = await pullCli(['--project', 'parent', '--format', 'i18next', '--out', join(parent, 'out')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('tolk: refused archive member "../escape.json": it contains a ".." segment\n');
    expect(tree(parent)).toEqual([]);
  });

  it('writes what the export holds: i18next namespaces in sub-folders, flutter ARB files of any catalog tag', async () => {
    const i18nextOut = freshDir();
    const i18next = await pull(options('namespaces', i18nextOut, { namespaces: true }));
    expect(i18next.files).toEqual(['de/components/dialog.json', 'en/translation.json', 'pt-BR/common.json', 'zh-Hant-TW/x_y-z.json']);
    const flutterOut = freshDir();
    const flutter = await pull(options('flutter', flutterOut, { format: 'flutter' }));
    expect(flutter.files).toEqual(['app_de.arb', 'app_es_419.arb', 'app_pt_BR.arb', 'app_zh_Hant_TW.arb']);
    expect(tree(flutterOut)).toEqual(['.tolk-pull.json', ...flutter.files]);
  });
});

describe('tolk pull reads at most --max-bytes', () => {
  it('a gzip bomb: refused once its files pass --max-bytes, nothing written', async () => {
    const parent = freshDir();
    const out = join(parent, 'out');
    // 32 MiB of zeros is ~32 KiB compressed: the download is well under the cap, the files are not
    await expect(pull(options('bomb', out))).rejects.toThrow(/^refused the archive: its files hold more than 1,048,576 bytes \(--max-bytes\)$/);
    expect(tree(parent)).toEqual([]);
  });

  it('--max-bytes is 256 MiB unless given; it takes a whole number of bytes', () => {
    const flags = (more: { maxBytes?: string } = {}) => ({ url: 'http://127.0.0.1:9', key: 'k', project: 'p', format: 'json', out: 'x', ...more });
    expect(resolvePullOptions(flags(), {}, freshDir()).maxBytes).toBe(256 * MIB);
    expect(resolvePullOptions(flags({ maxBytes: '1024' }), {}, freshDir()).maxBytes).toBe(1024);
    expect(() => resolvePullOptions(flags({ maxBytes: '1e9' }), {}, freshDir())).toThrow('--max-bytes must be a whole number of bytes ≥ 1, not "1e9"');
  });

  it('an endless body: stops at --max-bytes with one line on stderr and exit 1, nothing written', async () => {
    const parent = freshDir();
    const out = join(parent, 'out');
    const started = Date.now();
    const result = await pullCli(['--project', 'endless', '--format', 'flutter', '--out', out, '--max-bytes', String(MIB)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('tolk: refused the download: it is larger than 1,048,576 bytes (--max-bytes)\n');
    // what the server got out before the CLI hung up: the cap plus what sockets buffer, far from the bound
    const sent = await sentBeforeClose.get('endless')!;
    expect(sent).toBeLessThan(32 * MIB);
    expect(tree(parent)).toEqual([]);
    console.log(`endless body: the server sent ${(sent / MIB).toFixed(1)} MiB before the CLI closed, in ${Date.now() - started} ms`);
  });
});

describe('tolk pull prints no terminal control sequence it was sent', () => {
  it('an error message with escape sequences: one line on stderr, the sequences shown, not sent', async () => {
    const result = await pullCli(['--project', 'error-escapes', '--format', 'json', '--out', freshDir()]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(TERMINAL_CONTROL);
    expect(result.stderr).toBe('tolk: ERR_VALIDATION: bad \\x1b]0;pwned\\x07 \\x1b[31mred\\x9b2J \\u202etxt.exe\n');
  });

  it('warnings from the checks with escape sequences: shown, not sent; the pull still succeeds', async () => {
    const out = freshDir();
    const result = await pullCli(['--project', 'checks-escapes', '--format', 'i18next', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(TERMINAL_CONTROL);
    expect(result.stderr).toContain('warning: abad \\x1b]0;pwned\\x07');
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(tree(out)).toEqual(['.tolk-pull.json', 'en', 'en/translation.json']);
  });
});
