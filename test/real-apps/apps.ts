/**
 * The real apps of test/fixtures/real-apps (their folders, languages and how each framework loads its
 * files), their keys as the import reads them, and the contract's rules for what keyStyle free may
 * refuse: shared by the real-apps tests.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NameKind } from '../../src/names/technical-names.js';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/real-apps/', import.meta.url));
export const COUNTS = [0, 1, 2, 5, 21];

export type Format = 'flutter' | 'i18next' | 'vue-i18n';
export interface App {
  name: string;
  format: Format;
  /** what `--in` names: the app's folder, or the folder its files are in */
  folder: string;
  /** the folder under `folder` that holds the app's translation files (every file in it is one), '' for `folder` itself */
  layoutRoot: string;
  languages: string[];
  /** the app's files per language, as the framework loads them: namespace → object */
  load: (language: string) => Record<string, Record<string, unknown>>;
  /** i18next options the app uses */
  i18next?: { keySeparator: string | false; nsSeparator: string | false; returnEmptyString?: false };
  /**
   * i18next: the files are namespaces (`locales/<lng>/<ns>.json`, also in sub-folders: `<lng>/components/dialog.json`
   * is the namespace `components/dialog`), each read into a top-level group
   */
  namespaces?: true;
}

export const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/** Every file under `dir`, sub-folders included, relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
}

/** The namespace files of one language folder as i18next's backends load them: `components/dialog.json` → namespace `components/dialog`. */
export function namespaceFiles(dir: string): Record<string, Record<string, unknown>> {
  return Object.fromEntries(filesUnder(dir).filter((name) => name.endsWith('.json')).map((name) => [name.slice(0, -'.json'.length), readJson(join(dir, name))]));
}

export const APPS: App[] = [
  { name: 'flutter-gallery', format: 'flutter', folder: 'flutter-gallery', layoutRoot: 'lib/l10n', languages: ['en', 'de', 'ru'], load: (l) => ({ arb: readJson(join(FIXTURES, 'flutter-gallery/lib/l10n', `intl_${l}.arb`)) }) },
  { name: 'smooth-app', format: 'flutter', folder: 'smooth-app', layoutRoot: 'lib/l10n', languages: ['en', 'de', 'pl'], load: (l) => ({ arb: readJson(join(FIXTURES, 'smooth-app/lib/l10n', `app_${l}.arb`)) }) },
  {
    name: 'headlamp',
    format: 'i18next',
    folder: 'headlamp/frontend/src/i18n',
    layoutRoot: 'locales',
    languages: ['en', 'de'],
    load: (l) => namespaceFiles(join(FIXTURES, 'headlamp/frontend/src/i18n/locales', l)),
    i18next: { keySeparator: false, nsSeparator: '|' },
    namespaces: true,
  },
  {
    name: 'memos',
    format: 'i18next',
    folder: 'memos/web/src/locales',
    layoutRoot: '',
    languages: ['en', 'de', 'ru'],
    load: (l) => ({ translation: readJson(join(FIXTURES, 'memos/web/src/locales', `${l}.json`)) }),
    i18next: { keySeparator: '.', nsSeparator: ':' },
  },
  { name: 'hoppscotch', format: 'vue-i18n', folder: 'hoppscotch/packages/hoppscotch-common/locales', layoutRoot: '', languages: ['en', 'de'], load: (l) => ({ messages: readJson(join(FIXTURES, 'hoppscotch/packages/hoppscotch-common/locales', `${l}.json`)) }) },
  { name: 'uptime-kuma', format: 'vue-i18n', folder: 'uptime-kuma/src/lang', layoutRoot: '', languages: ['en', 'de-DE', 'pl'], load: (l) => ({ messages: readJson(join(FIXTURES, 'uptime-kuma/src/lang', `${l}.json`)) }) },
  {
    // namespaces in sub-folders three deep (`layout/header/actions/toggle-edit-mode`), a namespace beside a
    // folder of the same name (`layout/header.json`, `layout/header/`), German files of namespaces English dropped
    name: 'homarr',
    format: 'i18next',
    folder: 'homarr',
    layoutRoot: 'public/locales',
    languages: ['en', 'de', 'pl'],
    load: (l) => namespaceFiles(join(FIXTURES, 'homarr/public/locales', l)),
    // next-i18next.config.js: i18next's separators, and an empty text falls back to English
    i18next: { keySeparator: '.', nsSeparator: ':', returnEmptyString: false },
    namespaces: true,
  },
  {
    // namespaces in sub-folders (`components/dialog`); German and Russian still write three keys dotted
    // (`"timeline.aria"`) that English nests; Russian plural families without `_other`
    name: 'frigate',
    format: 'i18next',
    folder: 'frigate/web',
    layoutRoot: 'public/locales',
    languages: ['en', 'de', 'ru'],
    load: (l) => namespaceFiles(join(FIXTURES, 'frigate/web/public/locales', l)),
    // web/src/utils/i18n.ts: keySeparator '.', i18next's default nsSeparator
    i18next: { keySeparator: '.', nsSeparator: ':' },
    namespaces: true,
  },
];

/** The app's translation files, as `--in`-relative paths: every file under its layout root, found in the fixture folder itself. */
export function translationFiles(app: App): string[] {
  const root = join(FIXTURES, app.folder, app.layoutRoot);
  return filesUnder(root).map((name) => relative(join(FIXTURES, app.folder), join(root, name)));
}

/** The language a translation file is of, by its path: its language folder (`public/locales/de/…`) or its name (`de-DE.json`, `app_pl.arb`). */
export function languageOfFile(app: App, path: string): string | undefined {
  const parts = path.replace(/\.(json|arb)$/, '').split('/');
  return app.languages.find((language) => parts.slice(0, -1).includes(language) || parts.at(-1) === language || parts.at(-1)!.endsWith(`_${language}`));
}

/** The other files of the app's `--in` folder (a LICENSE, l10n.yaml): not translations, so never read as such, but never passed over in silence. */
export function otherFiles(app: App): string[] {
  const translations = new Set(translationFiles(app));
  return filesUnder(join(FIXTURES, app.folder)).filter((name) => !translations.has(name));
}

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

/**
 * The text i18next finds for a path of names in an object: each name nested, or several joined by its
 * keySeparator `.` as one key of the file (`"timeline.aria"` where another language nests `timeline: {aria}`).
 */
export function textFoundAt(object: unknown, names: readonly string[]): string | undefined {
  if (names.length === 0) return typeof object === 'string' ? object : undefined;
  if (!object || typeof object !== 'object') return undefined;
  for (let end = names.length; end > 0; end -= 1) {
    const found = textFoundAt((object as Record<string, unknown>)[names.slice(0, end).join('.')], names.slice(end));
    if (found !== undefined) return found;
  }
  return undefined;
}

export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * An i18next name as the import reads it: a name ending in a plural suffix (`key_one`) is a form of the
 * entry `key`, `_other` among the forms or not (CONTRACT, "More of what real files hold": a Russian
 * family `year_one`, `year_few`, `year_many` is one plural too), and a plain `key` text beside the family
 * is part of that entry (i18next falls back to it for the forms the family lacks).
 */
function foldedName(name: string): string {
  const stem = name.replace(PLURAL_SUFFIX, '');
  return stem !== name && stem !== '' ? stem : name;
}

/** A key of an app's files as the import reads it. */
export interface FileKey {
  /**
   * its path of names: the namespace's group (`components/dialog` one name), groups, entry; dotted names
   * split (vue-i18n, and i18next whatever the app's keySeparator: CONTRACT), i18next plural forms one
   */
  names: string[];
  /** the file's own keys it is read from (every form of an i18next plural): namespace, then path */
  raws: string[][];
  /** its text is empty (every form of it) */
  empty: boolean;
}

const splitDots = (names: readonly string[]) => names.flatMap((name) => name.split('.'));

/** The keys of one language's files (namespace → object), by their names (as JSON). */
export function keysOf(app: App, files: Record<string, Record<string, unknown>>): Map<string, FileKey> {
  const keys = new Map<string, FileKey>();
  for (const [namespace, object] of Object.entries(files)) {
    for (const [raw, text] of leaves(object)) {
      if (app.format === 'flutter' && raw[0]!.startsWith('@')) continue;
      const names =
        app.format === 'vue-i18n' ? splitDots(raw)
        : app.format === 'i18next' ? [...(app.namespaces ? [namespace] : []), ...splitDots([...raw.slice(0, -1), foldedName(raw.at(-1)!)])]
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

/** A rule for names: why it refuses `name` (a label), or undefined. `topLevel`: the name is a top-level group's. */
export type NameRule = (name: string, kind: NameKind, topLevel: boolean) => string | undefined;

/** The free rule for one name (CONTRACT, "Real apps' keys and layouts"). */
function freeName(name: string): string | undefined {
  if (name.length === 0) return 'an empty name';
  if (name.length > 100) return 'over 100 characters';
  if (/[.: ]/.test(name)) return 'a ".", ":" or space';
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return 'a character outside A–Z a–z 0–9 _ -';
  if (['__proto__', 'constructor', 'prototype'].includes(name)) return 'reserved by JavaScript objects';
  if (PLURAL_SUFFIX.test(name)) return 'an i18next plural suffix';
  return undefined;
}

/**
 * Why the contract lets a project with keyStyle free refuse a name, restated here rather than taken
 * from src: a key src loses for any other reason fails the test. A top-level group's name may hold `/`
 * between free names: an i18next namespace in sub-folders (CONTRACT, "More of what real files hold").
 */
export const freeRule: NameRule = (name, kind, topLevel) => {
  if (kind === 'entry' || !topLevel || !name.includes('/') || name.length > 100) return freeName(name);
  return name.split('/').map(freeName).find((why) => why !== undefined);
};

/**
 * The base keys that clash: a path that is a text and a group at once (`a` a text and `a.b` too), both
 * refused (CONTRACT, "Import": a name clash is a refused item). Only texts the reading keeps count.
 */
function clashingKeys(keys: Map<string, FileKey>): Set<string> {
  const read = [...keys].filter(([, key]) => !key.names.includes('') && !key.empty);
  const texts = new Set(read.map(([id]) => id));
  const groups = new Set(read.flatMap(([, key]) => key.names.slice(1).map((_, end) => JSON.stringify(key.names.slice(0, end + 1)))));
  return new Set(read.filter(([id, key]) => groups.has(id) || key.names.slice(1).some((_, end) => texts.has(JSON.stringify(key.names.slice(0, end + 1))))).map(([id]) => id));
}

/**
 * Why the import refuses each key of the base files (by id), in the order it checks (the reading, the
 * names, then clashes), or undefined when it imports it. An empty base text is refused whatever the key
 * style: a base term is 1–10,000 characters (CONTRACT, "Fields").
 */
export function refusals(keys: Map<string, FileKey>, rule: NameRule): Map<string, string | undefined> {
  const clashing = clashingKeys(keys);
  const why = (id: string, key: FileKey) => {
    if (key.names.includes('')) return 'an empty name between dots';
    if (key.empty) return 'empty base text';
    const byName = key.names.map((name, i) => rule(name, i === key.names.length - 1 ? 'entry' : 'group', i === 0)).find((reason) => reason !== undefined);
    return byName ?? (clashing.has(id) ? 'a text and a group at once' : undefined);
  };
  return new Map([...keys].map(([id, key]) => [id, why(id, key)]));
}

/** The app's base files' keys that `rule` lets through, by id. */
export function importedUnder(app: App, rule: NameRule): Map<string, FileKey> {
  const keys = keysOf(app, app.load(app.languages[0]!));
  const why = refusals(keys, rule);
  return new Map([...keys].filter(([id]) => why.get(id) === undefined));
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
  return namespaceFiles(join(out, language));
}
