/**
 * Six real apps' translation files (test/fixtures/real-apps, sources and licenses in its README), pushed
 * from the app's own folder as it is with `tolk push`, pulled back with `tolk pull`, and rendered in the
 * app's own framework: with keyStyle free every key whose names fit the free rule is imported and renders
 * as it did from the original file (i18next, vue-i18n, and intl-messageformat for ARB, with the same
 * arguments); ARB @key metadata comes back as it was. With camelCase one dry run lists every refused key
 * with the rule it breaks. The shares refused are printed (for the closing note of the import issue).
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
import { nameProblem } from '../../src/domain/shared/technical-names.js';

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

/** Every text of a nested object: its path of names and the text. */
function* leaves(value: unknown, path: string[] = []): Generator<[string[], string]> {
  if (typeof value === 'string') yield [path, value];
  else if (value && typeof value === 'object') for (const [name, child] of Object.entries(value)) yield* leaves(child, [...path, name]);
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The keys (paths) of an app whose every name fits the free style (plural suffix keys folded into one). */
function importableKeys(app: App): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const [namespace, object] of Object.entries(app.load(app.languages[0]!))) {
    for (const [raw] of leaves(object)) {
      const path = app.format === 'vue-i18n' ? raw.flatMap((part) => part.split('.')) : raw;
      const last = path.at(-1)!;
      const folded = app.format === 'i18next' && PLURAL_SUFFIX.test(last) ? [...path.slice(0, -1), last.replace(PLURAL_SUFFIX, '')] : path;
      const names = app.format === 'i18next' && app.name === 'headlamp' ? [namespace, ...folded] : folded;
      if (names.every((name, i) => nameProblem(name, i === names.length - 1 ? 'entry' : 'group', 'free') === undefined)) keys.set(JSON.stringify([namespace, ...raw]), raw);
    }
  }
  return keys;
}

/** The keys of the app's base file, i18next plural suffix keys folded into one. */
function countBaseKeys(app: App): number {
  const keys = new Set<string>();
  for (const [namespace, object] of Object.entries(app.load(app.languages[0]!))) {
    for (const [path] of leaves(object)) {
      if (app.format === 'flutter' && path[0]!.startsWith('@')) continue;
      const last = path.at(-1)!;
      keys.add(JSON.stringify([namespace, ...path.slice(0, -1), app.format === 'i18next' ? last.replace(PLURAL_SUFFIX, '') : last]));
    }
  }
  return keys.size;
}

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

const shares: string[] = [];

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
    process.stdout.write(`\n[real-apps] refused under camelCase / free:\n${shares.join('\n')}\n`);
  });

  describe.each(APPS)('$name ($format)', (app) => {
    it('with keyStyle free imports every key whose names fit, and each renders as from the original file', { timeout: 120_000 }, async () => {
      const [baseLanguage, ...translationLanguages] = app.languages;
      const project = (await createProject(server, key, { name: app.name.slice(0, 32), baseLanguage, translationLanguages, keyStyle: 'free' })).id as string;
      const connection = ['--url', url, '--key', key, '--project', project];
      const pushed = await tolk(['push', ...connection, '--format', app.format, '--in', join(FIXTURES, app.folder), '--skip-invalid', '--json']);
      const report = JSON.parse(pushed.stdout);
      // whatever was refused was refused for its name (or an empty base text, which the spec's base term cannot be), never for a text the app's framework renders
      const notForNames = report.refused.filter((item: any) => !/name|base language's text is empty/.test(item.message));
      expect(notForNames, JSON.stringify(notForNames.slice(0, 5))).toEqual([]);
      const importable = importableKeys(app);
      expect(report.entries.created).toBeGreaterThanOrEqual(importable.size * 0.99);

      const out = mkdtempSync(join(tmpdir(), `tolk-real-${app.name}-`));
      const pull = await tolk(['pull', ...connection, '--format', app.format, '--out', out, '--quiet', ...(app.name === 'headlamp' ? ['--namespaces'] : [])]);
      expect(pull.code, pull.stderr).toBe(0);
      let compared = 0;
      for (const language of app.languages) {
        const original = app.load(language);
        if (app.format === 'flutter') compared += compareArb(app, language, original['arb']!, readJson(join(out, `app_${language.replaceAll('-', '_')}.arb`)), importable, language === baseLanguage);
        else if (app.format === 'i18next') compared += await compareI18next(app, language, original, pulledI18next(out, language), importable);
        else compared += compareVue(language, original['messages']!, readJson(join(out, `${language}.json`)), importable);
      }
      expect(compared).toBeGreaterThan(0);
    });

    it('with camelCase, one dry run lists every refused key with the rule it breaks', { timeout: 120_000 }, async () => {
      const [baseLanguage, ...translationLanguages] = app.languages;
      const project = (await createProject(server, key, { name: app.name.slice(0, 32), baseLanguage, translationLanguages })).id as string;
      const dry = await tolk(['push', '--url', url, '--key', key, '--project', project, '--format', app.format, '--in', join(FIXTURES, app.folder), '--dry-run', '--json']);
      const report = JSON.parse(dry.stdout);
      expect(report.dryRun).toBe(true);
      expect((await server.api('GET', `/projects/${project}/groups`, { key })).body.total).toBe(0);
      for (const item of report.refused) expect(item.message, item.key).toMatch(/camelCase|characters|name|not a language|no entry|base text was refused|fits no group/);
      const texts = report.entries.created + report.totals.refused;
      const base = report.refused.filter((item: any) => item.language === baseLanguage);
      const rules = new Map<string, number>();
      for (const item of base) {
        const rule = /must be camelCase/.test(item.message) ? 'not camelCase' : /4–100 characters/.test(item.message) ? 'entry name under 4 characters' : /fits no group/.test(item.message) ? 'ARB key fits no group' : /empty/.test(item.message) ? 'empty base text' : 'other';
        rules.set(rule, (rules.get(rule) ?? 0) + 1);
      }
      // the base file's keys (plural suffix keys folded into one), and the share the naming rules refused
      const total = countBaseKeys(app);
      const refused = total - report.entries.created;
      const sample = report.totals.refused > report.refused.length ? ` (rules counted over the first ${report.refused.length} listed)` : '';
      shares.push(`  ${app.name}: camelCase refuses ${refused} of ${total} base keys (${((100 * refused) / total).toFixed(1)} %: ${[...rules].map(([rule, n]) => `${rule} ${n}`).join(', ')}${sample}); free imports ${importableKeys(app).size}`);
      expect(texts).toBeGreaterThan(0);
    });
  });
});

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
