/**
 * Real apps' translation files (test/fixtures/real-apps, sources and licenses in its README), pushed
 * from the app's own folder as it is with `tolk push` (every translation file of it read, every other
 * file named as not read), pulled back with `tolk pull`, and rendered in the app's own framework: with
 * keyStyle free exactly the keys the contract lets it refuse are refused (the
 * expected set is worked out from the app's files by the contract's rule, so a single other key lost
 * fails), and each imported key renders as it did from the original file (i18next, vue-i18n, and
 * intl-messageformat for ARB, with the same arguments); ARB @key metadata comes back as it was. With
 * camelCase one dry run refuses exactly the keys src's naming rule refuses. The shares refused, by rule,
 * are printed and must be those of the README's table.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameProblem } from '../../src/names/technical-names.js';
import { readArbMessage } from '../../src/messages/flutter/read-flutter.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { APPS, argumentsOf, COUNTS, FIXTURES, freeRule, importedUnder, keysOf, languageOfFile, leaves, otherFiles, PLURAL_SUFFIX, pulledFiles, refusals, tolk, translationFiles, type App, type FileKey, type NameRule } from './apps.js';
import { i18nextOf, renderArb, vueT } from './runtimes.js';

/** The camelCase rule as src applies it (the one definition, technical-names.ts), labelled by the part it breaks. */
const camelCaseRule: NameRule = (name, kind) => {
  const problem = nameProblem(name, kind, 'camelCase');
  if (problem === undefined) return undefined;
  if (/camelCase/.test(problem)) return 'not camelCase';
  return [...name].length > 100 ? 'over 100 characters' : 'entry name under 4 characters';
};

/** The keys a compare function renders: each file key it reads an entry from (namespace, then path) → its path. */
const rawKeys = (keys: Map<string, FileKey>) => new Map([...keys.values()].flatMap((key) => key.raws.map((raw) => [JSON.stringify(raw), raw.slice(1)] as const)));

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
      // every file accounted for (CONTRACT "Import": nothing is skipped silently): each file under the app's
      // layout root, as found in the fixture folder, is read, and every other file under --in (its LICENSE,
      // l10n.yaml) is named as not read
      expect(report.files.map((file: any) => file.path).sort(), 'the files read').toEqual(translationFiles(app));
      expect(report.totals.files).toBe(translationFiles(app).length);
      for (const file of report.files) expect(file.language, file.path).toBe(languageOfFile(app, file.path));
      expect(report.notRead.map((file: any) => file.path).sort(), 'the files not read').toEqual(otherFiles(app).sort());
      // whatever was refused was refused for its name (or an empty base text, which the spec's base term cannot be, or a name clash), never for a text the app's framework renders
      const notForNames = report.refused.filter((item: any) => !/name|base language's text is empty|a text and a group at once/.test(item.message));
      expect(notForNames, JSON.stringify(notForNames.slice(0, 5))).toEqual([]);
      const expected = importedUnder(app, freeRule);
      expect(report.entries.created).toBe(expected.size);

      const out = mkdtempSync(join(tmpdir(), `tolk-real-${app.name}-`));
      const pull = await tolk(['pull', ...connection, '--format', app.format, '--out', out, '--quiet', ...(app.namespaces ? ['--namespaces'] : [])]);
      expect(pull.code, pull.stderr).toBe(0);
      // the very keys: the pulled base file holds each expected key, and nothing else
      expect([...keysOf(app, pulledFiles(app.format, out, baseLanguage!)).keys()].sort()).toEqual([...expected.keys()].sort());
      const importable = rawKeys(expected);
      let compared = 0;
      for (const language of app.languages) {
        const original = app.load(language);
        if (app.format === 'flutter') compared += compareArb(app, language, original['arb']!, pulledFiles(app.format, out, language)['arb']!, importable, language === baseLanguage);
        else if (app.format === 'i18next') compared += await compareI18next(app, language, original, pulledFiles(app.format, out, language), importable);
        else compared += compareVue(language, original['messages']!, pulledFiles(app.format, out, language)['messages']!, importable);
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
      for (const item of report.refused) expect(item.message, item.key).toMatch(/camelCase|characters|name|not a language|no entry|base text was refused|fits no group|a text and a group at once/);
      // every key of the base file classified by the rule (the report lists at most 1,000 refused items)
      const keys = keysOf(app, app.load(baseLanguage!));
      const rules = countRules(keys, camelCaseRule);
      const why = refusals(keys, camelCaseRule);
      const ruleOfKey = new Map([...keys].map(([id, fileKey]) => [fileKey.names.join('.'), why.get(id)]));
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
  for (const why of refusals(keys, rule).values()) {
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
  'a text and a group at once': 'is a text and a group at once',
};

async function compareI18next(app: App, language: string, original: Record<string, Record<string, unknown>>, pulled: Record<string, Record<string, unknown>>, importable: Map<string, string[]>): Promise<number> {
  const instance = (resources: Record<string, Record<string, unknown>>) => i18nextOf(language, resources, { interpolation: { escapeValue: false }, ...app.i18next });
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
      // not in this language's file (i18next would show the key; headlamp's keys are its English texts, so asked, not compared)
      if (!before.exists(k, args as never)) continue;
      const expected = before.t(k, args as never) as unknown as string;
      if (expected === '') continue; // an empty text is "not translated" (CONTRACT): the pull falls back to the base term
      expect(after.t(k, args as never), `${language} ${namespace}:${k} count ${count}`).toBe(expected);
      compared += 1;
    }
  }
  return compared;
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
    const render = (text: string, count: number) => renderArb(text, language, argumentsOf([readArbMessage(text, new Set(), false, language)], count));
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
