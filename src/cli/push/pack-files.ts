/**
 * Packs what `tolk push` sends: the folder's files in the import body of their format (CONTRACT,
 * "Import"), read from the layouts `tolk pull` writes and each framework's usual ones:
 * - json: `messages.json` (or the file given);
 * - vue-i18n: one `<lang>.json` per language, flat or nested (or one file of all languages);
 * - i18next: `<lng>/<ns>.json` under the folder, or under its `locales/` or `public/locales/`;
 * - flutter: the `*.arb` files of the folder, or of `l10n.yaml`'s `arb-dir` (default `lib/l10n`).
 * The server converts and checks everything; here only the files are found and packed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { JSON_FILE } from '../pull/export-files.js';
import type { PushFormat } from './options.js';

export interface PackedBody {
  contentType: 'application/json' | 'application/gzip';
  body: Buffer;
  /** the files read, relative to the folder, for the report */
  files: string[];
}

const isDirectory = (path: string) => existsSync(path) && statSync(path).isDirectory();

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readText(path));
  } catch (error) {
    if ((error as Error).message.startsWith('cannot read')) throw error;
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

function listDirectory(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (error) {
    throw new Error(`cannot read the directory ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function tarGz(files: ReadonlyArray<readonly [name: string, text: string]>): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve());
    archive.on('error', reject);
  });
  for (const [name, text] of files) archive.entry({ name, mode: 0o644 }, text);
  archive.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks), { level: 6 });
}

const jsonBody = (document: unknown, files: string[]): PackedBody => ({ contentType: 'application/json', body: Buffer.from(JSON.stringify(document), 'utf8'), files });

function packJson(path: string): PackedBody {
  const file = isDirectory(path) ? join(path, JSON_FILE) : path;
  return jsonBody(readJson(file), [basename(file)]);
}

/** A language file's tag: `de.json` → de, `pt_BR.json` → pt-BR. */
const tagOf = (name: string) => name.replace(/\.json$/, '').replaceAll('_', '-');

function packVue(path: string): PackedBody {
  if (!isDirectory(path)) return jsonBody(readJson(path), [basename(path)]);
  const names = listDirectory(path).filter((name) => name.endsWith('.json') && name !== JSON_FILE && !name.startsWith('.'));
  if (names.length === 0) throw new Error(`${path} holds no <lang>.json`);
  return jsonBody(Object.fromEntries(names.map((name) => [tagOf(name), readJson(join(path, name))])), names);
}

/** The folder that holds `<lng>/<ns>.json`: the one given, or its `locales/` or `public/locales/`. */
function i18nextRoot(path: string): string | undefined {
  for (const candidate of [path, join(path, 'locales'), join(path, 'public', 'locales')]) {
    if (!isDirectory(candidate)) continue;
    const hasLanguageFolder = listDirectory(candidate).some((name) => isDirectory(join(candidate, name)) && listDirectory(join(candidate, name)).some((file) => file.endsWith('.json')));
    if (hasLanguageFolder) return candidate;
  }
  return undefined;
}

/** Languages' files of `tag.json`: a language tag, `_` or `-` between its parts (`pt_BR.json`, `de-DE.json`). */
const LANGUAGE_FILE = /^[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*\.json$/;

async function packI18next(path: string): Promise<PackedBody> {
  const root = i18nextRoot(path);
  if (!root) {
    // One `<lang>.json` per language (i18next's resources in one file each): the default namespace.
    const names = isDirectory(path) ? listDirectory(path).filter((name) => LANGUAGE_FILE.test(name)) : [];
    if (names.length === 0) throw new Error(`${path} holds no <lng>/<namespace>.json (looked in it, in locales/ and in public/locales/) and no <lang>.json`);
    const files = names.map((name) => [`${tagOf(name)}/translation.json`, readText(join(path, name))] as const);
    return { contentType: 'application/gzip', body: await tarGz(files), files: names };
  }
  const files: [string, string][] = [];
  for (const language of listDirectory(root)) {
    const dir = join(root, language);
    if (!isDirectory(dir)) continue;
    for (const name of listDirectory(dir)) {
      if (name.endsWith('.json') && !name.startsWith('.')) files.push([`${language}/${name}`, readText(join(dir, name))]);
    }
  }
  return { contentType: 'application/gzip', body: await tarGz(files), files: files.map(([name]) => relative(path, join(root, name))) };
}

/** `arb-dir` of an l10n.yaml (a one-line key: no YAML parser needed for it). */
function arbDirOf(projectDir: string): string | undefined {
  const file = join(projectDir, 'l10n.yaml');
  if (!existsSync(file)) return undefined;
  const match = /^arb-dir:\s*["']?([^"'\n#]+?)["']?\s*(?:#.*)?$/m.exec(readText(file));
  return join(projectDir, match?.[1] ?? join('lib', 'l10n'));
}

async function packFlutter(path: string): Promise<PackedBody> {
  const arbFiles = (dir: string) => (isDirectory(dir) ? listDirectory(dir).filter((name) => name.endsWith('.arb')) : []);
  const dir = [path, arbDirOf(path), join(path, 'lib', 'l10n')].find((candidate) => candidate !== undefined && arbFiles(candidate).length > 0);
  if (!dir) throw new Error(`${path} holds no .arb files (looked in it, in l10n.yaml's arb-dir and in lib/l10n)`);
  const files = arbFiles(dir).map((name) => [name, readText(join(dir, name))] as const);
  return { contentType: 'application/gzip', body: await tarGz(files), files: files.map(([name]) => relative(path, join(dir, name))) };
}

/** The import body of the files at `path` in `format`; throws a one-line reason when none are found. */
export async function packFiles(format: PushFormat, path: string): Promise<PackedBody> {
  switch (format) {
    case 'json':
      return packJson(path);
    case 'vue-i18n':
      return packVue(path);
    case 'i18next':
      return packI18next(path);
    case 'flutter':
      return packFlutter(path);
  }
}
