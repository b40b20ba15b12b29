/**
 * The six real apps of test/fixtures/real-apps (their folders, languages and how each framework loads
 * its files), their keys as the import reads them, and the contract's rule for what keyStyle free may
 * refuse: shared by the real-apps tests.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NameKind } from '../../src/domain/shared/technical-names.js';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/real-apps/', import.meta.url));
export const COUNTS = [0, 1, 2, 5, 21];

export type Format = 'flutter' | 'i18next' | 'vue-i18n';
export interface App {
  name: string;
  format: Format;
  /** what `--in` names: the app's folder, or the folder its files are in */
  folder: string;
  languages: string[];
  /** the app's files per language, as the framework loads them: namespace → object */
  load: (language: string) => Record<string, Record<string, unknown>>;
  /** i18next options the app uses */
  i18next?: { keySeparator: string | false; nsSeparator: string | false };
  /** i18next: the files are namespaces (`locales/<lng>/<ns>.json`), each read into a top-level group */
  namespaces?: true;
}

export const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

export const APPS: App[] = [
  { name: 'flutter-gallery', format: 'flutter', folder: 'flutter-gallery', languages: ['en', 'de', 'ru'], load: (l) => ({ arb: readJson(join(FIXTURES, 'flutter-gallery/lib/l10n', `intl_${l}.arb`)) }) },
  { name: 'smooth-app', format: 'flutter', folder: 'smooth-app', languages: ['en', 'de', 'pl'], load: (l) => ({ arb: readJson(join(FIXTURES, 'smooth-app/lib/l10n', `app_${l}.arb`)) }) },
  {
    name: 'headlamp',
    format: 'i18next',
    folder: 'headlamp/frontend/src/i18n',
    languages: ['en', 'de'],
    load: (l) => Object.fromEntries(['translation', 'glossary'].map((ns) => [ns, readJson(join(FIXTURES, 'headlamp/frontend/src/i18n/locales', l, `${ns}.json`))])),
    i18next: { keySeparator: false, nsSeparator: '|' },
    namespaces: true,
  },
  {
    name: 'memos',
    format: 'i18next',
    folder: 'memos/web/src/locales',
    languages: ['en', 'de', 'ru'],
    load: (l) => ({ translation: readJson(join(FIXTURES, 'memos/web/src/locales', `${l}.json`)) }),
    i18next: { keySeparator: '.', nsSeparator: ':' },
  },
  { name: 'hoppscotch', format: 'vue-i18n', folder: 'hoppscotch/packages/hoppscotch-common/locales', languages: ['en', 'de'], load: (l) => ({ messages: readJson(join(FIXTURES, 'hoppscotch/packages/hoppscotch-common/locales', `${l}.json`)) }) },
  { name: 'uptime-kuma', format: 'vue-i18n', folder: 'uptime-kuma/src/lang', languages: ['en', 'de-DE', 'pl'], load: (l) => ({ messages: readJson(join(FIXTURES, 'uptime-kuma/src/lang', `${l}.json`)) }) },
];

/** Every text of a nested object: its path of names, the text, and the object that holds it. */
export function* leaves(value: unknown, path: string[] = [], parent: Record<string, unknown> = {}): Generator<[string[], string, Record<string, unknown>]> {
  if (typeof value === 'string') yield [path, value, parent];
  else if (value && typeof value === 'object') for (const [name, child] of Object.entries(value)) yield* leaves(child, [...path, name], value as Record<string, unknown>);
}

/** The text at a path of an object, if it is one. */
export function textAt(object: unknown, path: readonly string[]): string | undefined {
  let value = object;
  for (const name of path) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** An i18next name as the import reads it: `key_one` is the entry `key` when its object holds `key_other` and no `key` text. */
function foldedName(name: string, parent: Record<string, unknown>): string {
  const stem = name.replace(PLURAL_SUFFIX, '');
  return stem !== name && stem !== '' && typeof parent[stem] !== 'string' && typeof parent[`${stem}_other`] === 'string' ? stem : name;
}

/** A key of an app's files as the import reads it. */
export interface FileKey {
  /** its path of names: the namespace's group (headlamp), groups, entry; vue-i18n's dotted names split, i18next plural siblings one */
  names: string[];
  /** the file's own keys it is read from (every form of an i18next plural): namespace, then path */
  raws: string[][];
  /** its text is empty (every form of it) */
  empty: boolean;
}

/** The keys of one language's files (namespace → object), by their names (as JSON). */
export function keysOf(app: App, files: Record<string, Record<string, unknown>>): Map<string, FileKey> {
  const keys = new Map<string, FileKey>();
  for (const [namespace, object] of Object.entries(files)) {
    for (const [raw, text, parent] of leaves(object)) {
      if (app.format === 'flutter' && raw[0]!.startsWith('@')) continue;
      const names =
        app.format === 'vue-i18n' ? raw.flatMap((part) => part.split('.'))
        : app.format === 'i18next' ? [...(app.namespaces ? [namespace] : []), ...raw.slice(0, -1), foldedName(raw.at(-1)!, parent)]
        : raw;
      const id = JSON.stringify(names);
      const known = keys.get(id);
      if (known) {
        known.raws.push([namespace, ...raw]);
        known.empty &&= text === '';
      } else {
        keys.set(id, { names, raws: [[namespace, ...raw]], empty: text === '' });
      }
    }
  }
  return keys;
}

/** A rule for names: why it refuses `name` (a label), or undefined. */
export type NameRule = (name: string, kind: NameKind) => string | undefined;

/**
 * Why the contract lets a project with keyStyle free refuse a name (CONTRACT, "Real apps' keys and
 * layouts"), restated here rather than taken from src: a key src loses for any other reason fails the test.
 */
export const freeRule: NameRule = (name) => {
  if (name.length === 0) return 'an empty name';
  if (name.length > 100) return 'over 100 characters';
  if (/[.: ]/.test(name)) return 'a ".", ":" or space';
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return 'a character outside A–Z a–z 0–9 _ -';
  if (['__proto__', 'constructor', 'prototype'].includes(name)) return 'reserved by JavaScript objects';
  if (PLURAL_SUFFIX.test(name)) return 'an i18next plural suffix';
  return undefined;
};

/**
 * Why the import refuses a key of the base file, in the order it checks (the reading, then the names),
 * or undefined when it imports it. An empty base text is refused whatever the key style: a base term is
 * 1–10,000 characters (CONTRACT, "Fields").
 */
export function refusal(key: FileKey, rule: NameRule): string | undefined {
  if (key.names.includes('')) return 'an empty name between dots';
  if (key.empty) return 'empty base text';
  return key.names.map((name, i) => rule(name, i === key.names.length - 1 ? 'entry' : 'group')).find((why) => why !== undefined);
}

/** The app's base files' keys that `rule` lets through, by id. */
export function importedUnder(app: App, rule: NameRule): Map<string, FileKey> {
  return new Map([...keysOf(app, app.load(app.languages[0]!))].filter(([, key]) => refusal(key, rule) === undefined));
}

/** `tolk <args>` as a user runs it, without the settings of the environment it runs in. */
export function tolk(args: string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['TOLK_URL', 'TOLK_API_KEY', 'CI']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [TOLK_BIN, ...args], { cwd: tmpdir(), env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/**
 * Sample arguments for a message: every placeholder it names gets a value, and the count (each of
 * COUNTS) goes to `count`, `n` and every argument an ICU/ARB plural is on (`{hours, plural, …}`).
 */
export function argumentsOf(texts: string[], count: number): Record<string, unknown> {
  const args: Record<string, unknown> = { count, n: count };
  for (const text of texts) for (const match of text.matchAll(/\{\s*([A-Za-z0-9_]+)\s*,\s*(?:plural|selectordinal)\s*,/g)) args[match[1]!] = count;
  for (const text of texts) for (const match of text.matchAll(/\{\{?\s*-?\s*([A-Za-z0-9_]+)/g)) args[match[1]!] ??= `‹${match[1]}›`;
  return args;
}

/** The files `tolk pull --format <format>` wrote for a language, as an app's load() gives its own: namespace → object. */
export function pulledFiles(format: Format, out: string, language: string): Record<string, Record<string, unknown>> {
  if (format === 'flutter') return { arb: readJson(join(out, `app_${language.replaceAll('-', '_')}.arb`)) };
  if (format === 'vue-i18n') return { messages: readJson(join(out, `${language}.json`)) };
  const dir = join(out, language);
  return Object.fromEntries(readdirSync(dir).filter((name) => name.endsWith('.json')).map((name) => [name.slice(0, -5), readJson(join(dir, name))]));
}
