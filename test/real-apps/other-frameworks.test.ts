/**
 * The real apps (test/fixtures/real-apps), pushed with keyStyle free and pulled in each of the
 * OTHER frameworks' formats: every imported key whose message the product calls native in that target
 * (notNativeTargets of src/messages/targets.ts, the rule behind the `not-native:<format>` checks and
 * `tolk pull`'s warnings) renders there, called as the README says, exactly what the app's own
 * framework renders from its original file with the same arguments (counts 0, 1, 2, 5, 21 for plurals).
 * The Flutter export refuses a whole project holding a key gen-l10n cannot take, so flutter is pulled
 * from a project holding the entries it can carry (the rest counted, not checked). Differences the
 * contract accepts are listed, with their reason, in KNOWN_DIFFERENCES; any other fails.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKeyCollisions, flutterKey } from '../../src/exports/flutter/flutter-key.js';
import { printFlutter } from '../../src/messages/flutter/print-flutter.js';
import { storedMessage } from '../../src/messages/parse-message.js';
import { notNativeTargets, TARGETS } from '../../src/messages/targets.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { APPS, FIXTURES, freeRule, importedUnder, leaves, textAt, tolk, type App, type FileKey, type Format } from './apps.js';
import { ownRendering } from './own-renderings.js';
import { targetRendering } from './target-renderings.js';

/**
 * Keys that render differently in a target although the product calls their message native there, each
 * with the reason it is accepted. Every one must still differ (else remove it); any other difference fails.
 */
const KNOWN_DIFFERENCES: { app: string; target: Format; key: string; reason: string }[] = [];

/** One rendering that differs: the key (dotted path), language, the arguments by name, the app's rendering and the target's. */
interface Difference {
  key: string;
  language: string;
  args: Record<string, unknown>;
  expected: string;
  actual: string;
}

/** Per app × target, counted in (key, language) pairs: compared, and not compared with the reason. */
interface Tally {
  checked: number;
  /** of those checked, the plurals (each rendered for every count) */
  plurals: number;
  renders: number;
  notNative: number;
  noFlutterKey: number;
  untranslated: number;
  /** calls (not pairs) for which the app's i18next shows the key itself: a plural form its language's file lacks */
  keyShown: number;
  known: number;
}

const rows: string[] = [];
const figure = (n: number) => n.toLocaleString('en');

/** The json export (language → nested groups → entry → stored message) with only the entries whose dotted path `keep` accepts. */
function withEntries(document: Record<string, unknown>, keep: (dotted: string) => boolean): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [language, tree] of Object.entries(document)) {
    const root: Record<string, unknown> = {};
    for (const [path, text] of leaves(tree)) {
      if (!keep(path.join('.'))) continue;
      let node = root;
      for (const name of path.slice(0, -1)) node = (node[name] ??= {}) as Record<string, unknown>;
      node[path.at(-1)!] = text;
    }
    copy[language] = root;
  }
  return copy;
}

/**
 * The entries the Flutter export cannot carry (CONTRACT: it answers 409 for the whole project): a key
 * gen-l10n cannot take (findKeyCollisions, the export's own rule), or a message it cannot write in some
 * language (a literal brace in the default syntax, a placeholder name like `{0}`).
 */
function uncarriedByFlutter(document: Record<string, unknown>, languages: readonly string[]): Set<string> {
  const paths = [...leaves(document[languages[0]!])].map(([path]) => path);
  const refused = new Set(findKeyCollisions(paths).flatMap((collision) => collision.paths));
  for (const path of paths) {
    const printable = languages.every((language) => printFlutter(storedMessage(textAt(document[language], path)!), language, { escaping: false }).ok);
    if (!printable) refused.add(path.join('.'));
  }
  return refused;
}

/** What the apps' keys are in the project: the imported file keys, their entry paths, the stored messages (json export), and the entries the Flutter export cannot carry. */
interface Imported {
  keys: Map<string, FileKey>;
  paths: Map<string, string[]>;
  stored: Record<string, unknown>;
  uncarried: ReadonlySet<string>;
}

/**
 * Every imported key in every language of the app: rendered by the app's own framework from its
 * original file and by `target` from the files pulled into `out`, for each call the app makes, unless
 * the app's file has no text for it there, the product calls its message not native in the target, or
 * the Flutter export cannot carry its entry.
 */
async function compareAll(app: App, target: Format, out: string, { keys, paths, stored, uncarried }: Imported): Promise<{ tally: Tally; differences: Difference[] }> {
  const tally: Tally = { checked: 0, plurals: 0, renders: 0, notNative: 0, noFlutterKey: 0, untranslated: 0, keyShown: 0, known: 0 };
  const differences: Difference[] = [];
  for (const language of app.languages) {
    const own = await ownRendering(app, language);
    const render = await targetRendering(target, out, language, app.languages[0]!);
    for (const [id, fileKey] of keys) {
      const calls = own.calls(fileKey);
      const path = paths.get(id)!;
      const message = storedMessage(textAt(stored[language], path)!);
      if (!calls) tally.untranslated += 1;
      else if (notNativeTargets(message, language).includes(target)) tally.notNative += 1;
      else if (uncarried.has(path.join('.'))) tally.noFlutterKey += 1;
      else {
        tally.checked += 1;
        if (message.some((node) => node.kind === 'plural')) tally.plurals += 1;
        for (const call of calls) {
          const expected = own.render(fileKey, call);
          if (expected === undefined) {
            tally.keyShown += 1;
            continue;
          }
          const actual = render(path, message, call);
          tally.renders += 1;
          if (actual !== expected) differences.push({ key: path.join('.'), language, args: call.named, expected, actual });
        }
      }
    }
  }
  return { tally, differences };
}

describe('real apps: pulled in the other frameworks, each key the contract calls native there renders as the app rendered it', () => {
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
    process.stdout.write(`\n[real-apps] rendered in the other frameworks, in (key, language) pairs:\n| app | own | target | checked | of them plurals | renders | not native | no Flutter key | untranslated | calls showing the key | known differences |\n${rows.join('\n')}\n`);
  });

  const connection = (project: string) => ['--url', url, '--key', key, '--project', project];
  const newProject = async (app: App) => {
    const [baseLanguage, ...translationLanguages] = app.languages;
    return (await createProject(server, key, { name: app.name.slice(0, 32), baseLanguage, translationLanguages, keyStyle: 'free' })).id as string;
  };
  const pull = async (project: string, format: string) => {
    const out = mkdtempSync(join(tmpdir(), `tolk-real-${format}-`));
    const pulled = await tolk(['pull', ...connection(project), '--format', format, '--out', out, '--quiet']);
    expect(pulled.code, pulled.stderr).toBe(0);
    return out;
  };

  describe.each(APPS)('$name ($format)', (app) => {
    const baseLanguage = app.languages[0]!;
    const keys = importedUnder(app, freeRule);
    let project: string;
    /** the stored messages: the json export */
    let stored: Record<string, unknown>;
    /** each imported file key's entry path (a Flutter key is placed in groups by the import) */
    const paths = new Map<string, string[]>();

    beforeAll(async () => {
      project = await newProject(app);
      const pushed = await tolk(['push', ...connection(project), '--format', app.format, '--in', join(FIXTURES, app.folder), '--skip-invalid', '--json']);
      expect(JSON.parse(pushed.stdout).entries.created, pushed.stderr).toBe(keys.size);
      stored = JSON.parse(readFileSync(join(await pull(project, 'json'), 'messages.json'), 'utf8'));
      const byFlutterKey = new Map([...leaves(stored[baseLanguage])].map(([path]) => [flutterKey(path), path]));
      for (const [id, fileKey] of keys) {
        const path = app.format === 'flutter' ? byFlutterKey.get(fileKey.names[0]!) : fileKey.names;
        expect(path && textAt(stored[baseLanguage], path), `${id} is an entry of the project`).toBeTypeOf('string');
        paths.set(id, path!);
      }
    }, 120_000);

    it.each(TARGETS.filter((target) => target !== app.format))('%s', { timeout: 120_000 }, async (target) => {
      let uncarried = new Set<string>();
      let source = project;
      if (target === 'flutter') {
        uncarried = uncarriedByFlutter(stored, app.languages);
        source = await newProject(app);
        const imported = await server.api('POST', `/projects/${source}/import?format=json`, { key, body: withEntries(stored, (dotted) => !uncarried.has(dotted)) });
        expect(imported.status, imported.text.slice(0, 500)).toBe(200);
        expect(imported.body.refused).toEqual([]);
      }
      const out = await pull(source, target);

      const { tally, differences } = await compareAll(app, target, out, { keys, paths, stored, uncarried });

      const known = KNOWN_DIFFERENCES.filter((difference) => difference.app === app.name && difference.target === target);
      for (const { key } of known) expect(differences.some((difference) => difference.key === key), `KNOWN_DIFFERENCES: ${key} no longer differs in ${target}; remove it`).toBe(true);
      const unexplained = differences.filter((difference) => !known.some(({ key }) => key === difference.key));
      tally.known = differences.length - unexplained.length;
      const counts = [tally.checked, tally.plurals, tally.renders, tally.notNative, tally.noFlutterKey, tally.untranslated, tally.keyShown, tally.known];
      rows.push(`| ${app.name} | ${app.format} | ${target} | ${counts.map(figure).join(' | ')} |`);
      expect(tally.checked).toBeGreaterThan(0);
      expect(unexplained.slice(0, 10), `${unexplained.length} renderings differ from the app's own (the first 10)`).toEqual([]);
    });
  });
});
