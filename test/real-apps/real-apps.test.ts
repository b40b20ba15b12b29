/**
 * Six real apps' translation files (test/fixtures/real-apps, sources and licenses in its README), pushed
 * from the app's own folder as it is with `tolk push`, pulled back with `tolk pull`, and rendered in the
 * app's own framework: with keyStyle free exactly the keys the contract lets it refuse are refused (the
 * expected set is worked out from the app's files by the contract's rule, so a single other key lost
 * fails), and each imported key renders as it did from the original file (i18next, vue-i18n, and
 * intl-messageformat for ARB, with the same arguments); ARB @key metadata comes back as it was. With
 * camelCase one dry run refuses exactly the keys src's naming rule refuses. The shares refused, by rule,
 * are printed and must be those of the README's table.
 */
import i18next from 'i18next';
import IntlMessageFormat from 'intl-messageformat';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArbMessage } from '../../src/messages/flutter/read-flutter.js';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';
import { createRequire } from 'node:module';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { nameProblem, type NameKind } from '../../src/domain/shared/technical-names.js';

const require = createRequire(import.meta.url);
const FIXTURES = fileURLToPath(new URL('../fixtures/real-apps/', import.meta.url));
const COUNTS = [0, 1, 2, 5, 21];

type Format = 'flutter' | 'i18next' | 'vue-i18n';
interface App {
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

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

const APPS: App[] = [
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
function* leaves(value: unknown, path: string[] = [], parent: Record<string, unknown> = {}): Generator<[string[], string, Record<string, unknown>]> {
  if (typeof value === 'string') yield [path, value, parent];
  else if (value && typeof value === 'object') for (const [name, child] of Object.entries(value)) yield* leaves(child, [...path, name], value as Record<string, unknown>);
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** An i18next name as the import reads it: `key_one` is the entry `key` when its object holds `key_other` and no `key` text. */
function foldedName(name: string, parent: Record<string, unknown>): string {
  const stem = name.replace(PLURAL_SUFFIX, '');
  return stem !== name && stem !== '' && typeof parent[stem] !== 'string' && typeof parent[`${stem}_other`] === 'string' ? stem : name;
}

/** A key of an app's files as the import reads it. */
interface FileKey {
  /** its path of names: the namespace's group (headlamp), groups, entry; vue-i18n's dotted names split, i18next plural siblings one */
  names: string[];
  /** the file's own keys it is read from (every form of an i18next plural): namespace, then path */
  raws: string[][];
  /** its text is empty (every form of it) */
  empty: boolean;
}

/** The keys of one language's files (namespace → object), by their names (as JSON). */
function keysOf(app: App, files: Record<string, Record<string, unknown>>): Map<string, FileKey> {
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
type NameRule = (name: string, kind: NameKind) => string | undefined;

/**
 * Why the contract lets a project with keyStyle free refuse a name (CONTRACT, "Real apps' keys and
 * layouts"), restated here rather than taken from src: a key src loses for any other reason fails the test.
 */
const freeRule: NameRule = (name) => {
  if (name.length === 0) return 'an empty name';
  if (name.length > 100) return 'over 100 characters';
  if (/[.: ]/.test(name)) return 'a ".", ":" or space';
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return 'a character outside A–Z a–z 0–9 _ -';
  if (['__proto__', 'constructor', 'prototype'].includes(name)) return 'reserved by JavaScript objects';
  if (PLURAL_SUFFIX.test(name)) return 'an i18next plural suffix';
  return undefined;
};

/** The camelCase rule as src applies it (the one definition, technical-names.ts), labelled by the part it breaks. */
const camelCaseRule: NameRule = (name, kind) => {
  const problem = nameProblem(name, kind, 'camelCase');
  if (problem === undefined) return undefined;
  if (/camelCase/.test(problem)) return 'not camelCase';
  return [...name].length > 100 ? 'over 100 characters' : 'entry name under 4 characters';
};

/**
 * Why the import refuses a key of the base file, in the order it checks (the reading, then the names),
 * or undefined when it imports it. An empty base text is refused whatever the key style: a base term is
 * 1–10,000 characters (CONTRACT, "Fields").
 */
function refusal(key: FileKey, rule: NameRule): string | undefined {
  if (key.names.includes('')) return 'an empty name between dots';
  if (key.empty) return 'empty base text';
  return key.names.map((name, i) => rule(name, i === key.names.length - 1 ? 'entry' : 'group')).find((why) => why !== undefined);
}

/** The app's base files' keys that `rule` lets through, by id. */
function importedUnder(app: App, rule: NameRule): Map<string, FileKey> {
  return new Map([...keysOf(app, app.load(app.languages[0]!))].filter(([, key]) => refusal(key, rule) === undefined));
}

/** The keys a compare function renders: each file key it reads an entry from (namespace, then path) → its path. */
const rawKeys = (keys: Map<string, FileKey>) => new Map([...keys.values()].flatMap((key) => key.raws.map((raw) => [JSON.stringify(raw), raw.slice(1)] as const)));

function tolk(args: string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['TOLK_URL', 'TOLK_API_KEY', 'CI']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [TOLK_BIN, ...args], { cwd: tmpdir(), env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Sample arguments for a message: every placeholder it names gets a value, the count each of COUNTS. */
function argumentsOf(texts: string[], count: number): Record<string, unknown> {
  const args: Record<string, unknown> = { count, n: count };
  for (const text of texts) for (const match of text.matchAll(/\{\{?\s*-?\s*([A-Za-z0-9_]+)/g)) args[match[1]!] ??= `‹${match[1]}›`;
  return args;
}

/** Each app's figures (keys, what camelCase and free refuse, by rule), as rows of the table in test/fixtures/real-apps/README.md. */
const shares: string[] = [];
const README = fileURLToPath(new URL('../fixtures/real-apps/README.md', import.meta.url));
const figure = (n: number) => n.toLocaleString('en');

describe('real apps: pushed from their own folders, pulled, rendered in their own frameworks', () => {
  let server: TestServer;
  let key: string;
  let url: string;
  beforeAll(async () => {
    server = await startServer('sqlite');
    url = server.baseUrl.replace(/\/api\/v1$/, '');
    key = (await server.user({ dailyQuota: 100_000 })).apiKey;
  });
  afterAll(async () => {
    await server?.close();
    process.stdout.write(`\n[real-apps] what the naming rules refuse (the table of test/fixtures/real-apps/README.md):\n${shares.join('\n')}\n`);
  });

  describe.each(APPS)('$name ($format)', (app) => {
    it('with keyStyle free imports every key but those the contract lets it refuse, and each renders as from the original file', { timeout: 120_000 }, async () => {
      const [baseLanguage, ...translationLanguages] = app.languages;
      const project = (await createProject(server, key, { name: app.name.slice(0, 32), baseLanguage, translationLanguages, keyStyle: 'free' })).id as string;
      const connection = ['--url', url, '--key', key, '--project', project];
      const pushed = await tolk(['push', ...connection, '--format', app.format, '--in', join(FIXTURES, app.folder), '--skip-invalid', '--json']);
      const report = JSON.parse(pushed.stdout);
      // whatever was refused was refused for its name (or an empty base text, which the spec's base term cannot be), never for a text the app's framework renders
      const notForNames = report.refused.filter((item: any) => !/name|base language's text is empty/.test(item.message));
      expect(notForNames, JSON.stringify(notForNames.slice(0, 5))).toEqual([]);
      const expected = importedUnder(app, freeRule);
      expect(report.entries.created).toBe(expected.size);

      const out = mkdtempSync(join(tmpdir(), `tolk-real-${app.name}-`));
      const pull = await tolk(['pull', ...connection, '--format', app.format, '--out', out, '--quiet', ...(app.namespaces ? ['--namespaces'] : [])]);
      expect(pull.code, pull.stderr).toBe(0);
      // the very keys: the pulled base file holds each expected key, and nothing else
      expect([...keysOf(app, pulledFiles(app, out, baseLanguage!)).keys()].sort()).toEqual([...expected.keys()].sort());
      const importable = rawKeys(expected);
      let compared = 0;
      for (const language of app.languages) {
        const original = app.load(language);
        if (app.format === 'flutter') compared += compareArb(app, language, original['arb']!, pulledFiles(app, out, language)['arb']!, importable, language === baseLanguage);
        else if (app.format === 'i18next') compared += await compareI18next(app, language, original, pulledFiles(app, out, language), importable);
        else compared += compareVue(language, original['messages']!, pulledFiles(app, out, language)['messages']!, importable);
      }
      expect(compared).toBeGreaterThan(0);
    });

    it('with camelCase, one dry run refuses exactly the keys the rule refuses, each with the rule it breaks', { timeout: 120_000 }, async () => {
      const [baseLanguage, ...translationLanguages] = app.languages;
      const project = (await createProject(server, key, { name: app.name.slice(0, 32), baseLanguage, translationLanguages })).id as string;
      const dry = await tolk(['push', '--url', url, '--key', key, '--project', project, '--format', app.format, '--in', join(FIXTURES, app.folder), '--dry-run', '--json']);
      const report = JSON.parse(dry.stdout);
      expect(report.dryRun).toBe(true);
      expect((await server.api('GET', `/projects/${project}/groups`, { key })).body.total).toBe(0);
      for (const item of report.refused) expect(item.message, item.key).toMatch(/camelCase|characters|name|not a language|no entry|base text was refused|fits no group/);
      // every key of the base file classified by the rule (the report lists at most 1,000 refused items)
      const keys = keysOf(app, app.load(baseLanguage!));
      const rules = countRules(keys, camelCaseRule);
      const ruleOfKey = new Map([...keys.values()].map((fileKey) => [fileKey.names.join('.'), refusal(fileKey, camelCaseRule)]));
      const refused = [...rules.values()].reduce((sum, n) => sum + n, 0);
      expect(report.entries.created).toBe(keys.size - refused);
      // the server names the same rule for each refused key it lists
      for (const item of report.refused.filter((item: any) => item.language === baseLanguage)) {
        const rule = ruleOfKey.get(item.key);
        expect(rule, `${item.key}: ${item.message}`).toBeDefined();
        expect(item.message, item.key).toContain(PHRASES[rule!]);
      }

      const share = `${((100 * refused) / keys.size).toFixed(1)} %`;
      const freeRules = countRules(keys, freeRule);
      const row = `| ${app.name} | ${app.format} | ${figure(keys.size)} | ${figure(refused)} | ${share} | ${listRules(rules)} | ${figure(importedUnder(app, freeRule).size)} | ${listRules(freeRules)} |`;
      shares.push(row);
      expect(readFileSync(README, 'utf8'), 'the README\'s table of shares is out of date: paste the row printed after the run').toContain(row);
    });
  });
});

/** How many keys `rule` refuses, by the rule they break. */
function countRules(keys: Map<string, FileKey>, rule: NameRule): Map<string, number> {
  const rules = new Map<string, number>();
  for (const key of keys.values()) {
    const why = refusal(key, rule);
    if (why !== undefined) rules.set(why, (rules.get(why) ?? 0) + 1);
  }
  return rules;
}

/** `rule n, rule n` from the most keys down; `–` for none. */
const listRules = (rules: Map<string, number>) => [...rules].sort(([a, m], [b, n]) => n - m || a.localeCompare(b)).map(([rule, n]) => `${rule} ${figure(n)}`).join(', ') || '–';

/** Words of the server's message for a key refused by each rule. */
const PHRASES: Record<string, string> = {
  'an empty name between dots': 'an empty name between dots',
  'empty base text': "the base language's text is empty",
  'not camelCase': 'must be camelCase',
  'entry name under 4 characters': 'must be 4–100 characters',
  'over 100 characters': '–100 characters',
};

/** The pulled files of a language as the app's load() gives its own: namespace → object. */
function pulledFiles(app: App, out: string, language: string): Record<string, Record<string, unknown>> {
  if (app.format === 'flutter') return { arb: readJson(join(out, `app_${language.replaceAll('-', '_')}.arb`)) };
  if (app.format === 'vue-i18n') return { messages: readJson(join(out, `${language}.json`)) };
  return pulledI18next(out, language);
}

/** The pulled i18next files of a language: namespace → object. */
function pulledI18next(out: string, language: string): Record<string, Record<string, unknown>> {
  const dir = join(out, language);
  return Object.fromEntries(readdirSync(dir).filter((name) => name.endsWith('.json')).map((name) => [name.slice(0, -5), readJson(join(dir, name))]));
}

async function compareI18next(app: App, language: string, original: Record<string, Record<string, unknown>>, pulled: Record<string, Record<string, unknown>>, importable: Map<string, string[]>): Promise<number> {
  const instance = async (resources: Record<string, Record<string, unknown>>) => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: language, resources: { [language]: resources }, ns: Object.keys(resources), defaultNS: 'translation', interpolation: { escapeValue: false }, ...app.i18next, initAsync: false } as never);
    return i18n;
  };
  // headlamp's pulled namespaces are its groups; memos' single file is the default namespace
  const before = await instance(original);
  const after = await instance(pulled);
  let compared = 0;
  for (const id of importable.keys()) {
    const [namespace, ...raw] = JSON.parse(id) as string[];
    const last = raw.at(-1)!;
    const keyPath = PLURAL_SUFFIX.test(last) ? [...raw.slice(0, -1), last.replace(PLURAL_SUFFIX, '')] : raw;
    const k = app.i18next?.keySeparator === false ? keyPath.join('') : keyPath.join('.');
    const texts = [...leaves(original[namespace!])].map(([, text]) => text).filter((text) => text.includes('{{'));
    for (const count of COUNTS) {
      const args = { ...argumentsOf(texts.length < 50 ? texts : [], count), ns: namespace };
      const expected = before.t(k, args as never) as unknown as string;
      if (expected === k) continue; // not in this language's file: i18next shows the key, nothing to compare
      if (expected === '') continue; // an empty text is "not translated" (CONTRACT): the pull falls back to the base term
      expect(after.t(k, args as never), `${language} ${namespace}:${k} count ${count}`).toBe(expected);
      compared += 1;
    }
  }
  return compared;
}

/** The README's pluralRules function, taken from its code block (what tolk tells vue-i18n users to configure). */
function readmePluralRule(): (locale: string) => (choice: number, choicesLength: number) => number {
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  const block = /```js\n\/\/ tolk-plural-rules\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no tolk-plural-rules block');
  return new Function(`${block[1]}; return tolkPluralRule;`)() as never;
}

/** vue-i18n 11's t over `messages`: the app's own setup (no pluralRules), or with the README's. */
function vueT(messages: Record<string, unknown>, language: string, withReadmeRules: boolean): (key: string, ...args: unknown[]) => string {
  const { createI18n } = require('vue-i18n-11') as { createI18n: (options: object) => { global: { t: (...args: unknown[]) => string } } };
  const pluralRules = withReadmeRules ? { [language]: readmePluralRule()(language) } : undefined;
  const i18n = createI18n({ legacy: false, locale: language, messages: { [language]: messages }, pluralRules, missingWarn: false, fallbackWarn: false, warnHtmlMessage: false });
  return (key, ...args) => i18n.global.t(key, ...args);
}

/**
 * The app renders its own file without pluralRules (vue-i18n's default choice); the pulled file is
 * rendered as tolk's README says to set vue-i18n up (its pluralRules), so that a Polish 2-form pipe
 * message, read as one/other, gives the form the app showed for every count.
 */
function compareVue(language: string, original: Record<string, unknown>, pulled: Record<string, unknown>, importable: Map<string, string[]>): number {
  const before = vueT(original, language, false);
  const after = vueT(pulled, language, true);
  let compared = 0;
  for (const raw of importable.values()) {
    const k = raw.join('.');
    const text = [...leaves(original)].find(([path]) => path.join('.') === k)?.[1];
    if (text === undefined) continue;
    const calls: unknown[][] = text.includes('|') ? COUNTS.map((n) => [n]) : /\{\d+\}/.test(text) ? [[['‹0›', '‹1›', '‹2›']]] : [[argumentsOf([text], 3)]];
    for (const call of calls) {
      expect(after(k, ...call), `${language} ${k} ${JSON.stringify(call)}`).toBe(before(k, ...call));
      compared += 1;
    }
  }
  return compared;
}

function compareArb(app: App, language: string, original: Record<string, unknown>, pulled: Record<string, unknown>, importable: Map<string, string[]>, isTemplate: boolean): number {
  let compared = 0;
  for (const raw of importable.values()) {
    const k = raw.at(-1)!;
    if (k.startsWith('@') || typeof original[k] !== 'string' || original[k] === '') continue;
    expect(typeof pulled[k], `${app.name} ${k}`).toBe('string');
    // each side read with gen-l10n's meaning of its plural cases in the language, then rendered by intl-messageformat
    const render = (text: string, count: number) => {
      const message = readArbMessage(text, new Set(), false, language);
      return new IntlMessageFormat(message, language).format(argumentsOf([message], count)) as string;
    };
    for (const count of COUNTS) {
      expect(render(pulled[k] as string, count), `${app.name} ${k} count ${count}`).toBe(render(original[k] as string, count));
      compared += 1;
    }
    // the template's @key metadata comes back (description, placeholder types, formats, examples): all of it,
    // plus a placeholder declaration where the original used one without declaring it
    if (isTemplate && original[`@${k}`] !== undefined) expect(pulled[`@${k}`], `@${k}`).toMatchObject(original[`@${k}`] as object);
  }
  return compared;
}
