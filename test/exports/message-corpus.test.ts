/**
 * The corpus of (message, language) pairs stored in one project, exported, and rendered by the real
 * consumers — i18next 26 (its own plural keys and number format), vue-i18n 9, 10 and 11 (with the README's
 * pluralRules), and for ARB the printed gen-l10n message read back — against intl-messageformat rendering
 * the stored ICU message, for counts 0, 1, 2, 3, 5, 11, 21, 100 and 1.5. Equal wherever the checks call
 * the message native; elsewhere the export must render the ICU `other` branch.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printFlutter } from '../../src/messages/flutter/print-flutter.js';
import { readArbMessage } from '../../src/messages/flutter/read-flutter.js';
import type { Message } from '../../src/messages/message.js';
import { parseStoredMessage } from '../../src/messages/parse-message.js';
import { printIcu } from '../../src/messages/print-icu.js';
import { untar, VUE_I18N_VERSIONS } from '../helpers/consumers.js';
import { DIALECTS } from '../helpers/dialects.js';
import { ALL_LANGUAGES, argumentsFor, BASE_LANGUAGE, CORPUS, CORPUS_LANGUAGES, COUNTS } from '../helpers/message-corpus.js';
import { otherBranchSource, poundsAsArguments, renderIcu } from '../helpers/message-rendering.js';
import { createEntry, createGroup, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

const require = createRequire(import.meta.url);

/** The README's pluralRules function, taken from its code block so that the README cannot drift. */
function readmePluralRule(): (locale: string) => (choice: number, choicesLength: number) => number {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const block = /```js\n\/\/ tolk-plural-rules\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no tolk-plural-rules block');
  return new Function(`${block[1]}; return tolkPluralRule;`)() as never;
}

/** ICU's rendering of a message, with `#` as the plain number when `plainPound` (vue-i18n has no number format). */
function renderMessage(message: Message, language: string, args: Record<string, unknown>, plainPound = false): string {
  return renderIcu(printIcu(plainPound ? poundsAsArguments(message) : message), language, args);
}

/** What a target that cannot say the message renders: its other branch, a plural's number formatted (i18next) or plain (vue). */
function renderOther(message: Message, language: string, args: Record<string, unknown>, formattedCount: boolean): string {
  return renderIcu(otherBranchSource(message, formattedCount), language, args);
}

/** The argument vue-i18n's choice is made on: the message's plural's, when it has one. */
function pluralArgument(message: Message): string | undefined {
  const plural = message.find((node) => node.kind === 'plural');
  return plural?.kind === 'plural' ? plural.name : undefined;
}

describe.each(DIALECTS)('the message corpus in the real runtimes on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let projectId: string;
  const notNative = new Map<string, Set<string>>(); // format → "key language"
  const tally = { pairs: 0, renders: { icu: 0, i18next: 0, 'vue-i18n': 0, flutter: 0 } as Record<string, number>, notNative: {} as Record<string, number> };

  beforeAll(async () => {
    server = await startServer(dialect);
    key = (await server.user()).apiKey;
    projectId = (await createProject(server, key, { name: 'Corpus app', baseLanguage: BASE_LANGUAGE, translationLanguages: [...CORPUS_LANGUAGES] })).id;
    const group = await createGroup(server, key, projectId, 'corpus');
    for (const family of CORPUS) {
      const entry = await createEntry(server, key, group.id, family.name, family.messages[BASE_LANGUAGE]);
      for (const language of CORPUS_LANGUAGES) await setTranslation(server, key, entry.id, language, family.messages[language]!);
    }
    for (const format of ['i18next', 'vue-i18n', 'flutter']) {
      const found = new Set<string>();
      for (let offset = 0; ; offset += 100) {
        const page = await server.api('GET', `/projects/${projectId}/checks?check=not-native:${format}&limit=100&offset=${offset}`, { key });
        expect(page.status, page.text).toBe(200);
        for (const item of page.body.result) found.add(`${item.key} ${item.language}`);
        if (offset + 100 >= page.body.total) break;
      }
      notNative.set(format, found);
      tally.notNative[format] = found.size;
    }
  });
  afterAll(async () => {
    console.log(`[corpus ${dialect}] ${tally.pairs} (message, language) pairs over ${ALL_LANGUAGES.join(', ')}; renders compared: ${JSON.stringify(tally.renders)}; not native: ${JSON.stringify(tally.notNative)}`);
    await server?.close();
  });

  const download = async (path: string) => {
    const response = await fetch(`${server.baseUrl}/projects/${projectId}${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };

  it.each(['json', 'vue-i18n', 'i18next', 'flutter'])('%s: the export imported into an empty project exports the same again (the same members for archives)', async (format) => {
    // the corpus holds literal braces, which gen-l10n says only in its escaping syntax
    const query = format === 'flutter' ? '?escaping=true' : '';
    const exported = await download(`/export/${format}${query}`);
    const target = (await createProject(server, key, { name: 'Corpus copy', baseLanguage: BASE_LANGUAGE, translationLanguages: [...CORPUS_LANGUAGES] })).id;
    const archive = format === 'i18next' || format === 'flutter';
    const imported = await fetch(`${server.baseUrl}/projects/${target}/import?format=${format}${query.replace('?', '&')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': archive ? 'application/gzip' : 'application/json' },
      body: exported,
    });
    const report = (await imported.json()) as { refused: unknown[]; entries: { created: number } };
    expect(imported.status, JSON.stringify(report).slice(0, 500)).toBe(200);
    expect(report.refused).toEqual([]);
    expect(report.entries.created).toBe(CORPUS.length);
    const response = await fetch(`${server.baseUrl}/projects/${target}/export/${format}${query}`, { headers: { authorization: `Bearer ${key}` } });
    const again = Buffer.from(await response.arrayBuffer());
    if (archive) {
      const [before, after] = [await untar(exported), await untar(again)];
      for (const [name, text] of before) expect(after.has(name) ? JSON.parse(after.get(name)!) : undefined, name).toEqual(JSON.parse(text));
      expect(after).toEqual(before);
    } else {
      expect(JSON.parse(again.toString('utf8'))).toEqual(JSON.parse(exported.toString('utf8')));
      expect(again.toString('utf8')).toBe(exported.toString('utf8'));
    }
  });

  it('has at least 300 pairs, and the json export holds every stored message unchanged', async () => {
    const document = JSON.parse((await download('/export/json')).toString('utf8'));
    for (const family of CORPUS) {
      for (const language of ALL_LANGUAGES) {
        expect(document[language].corpus[family.name]).toBe(family.messages[language]);
        tally.pairs += 1;
        tally.renders['icu']! += COUNTS.length;
      }
    }
    expect(tally.pairs).toBeGreaterThanOrEqual(300);
  });

  it('i18next renders what ICU renders, or the other branch where the checks say it cannot', async () => {
    const files = await untar(await download('/export/i18next'));
    const i18n = i18next.createInstance();
    const resources = Object.fromEntries(ALL_LANGUAGES.map((language) => [language, { translation: JSON.parse(files.get(`${language}/translation.json`)!) }]));
    await i18n.init({ lng: BASE_LANGUAGE, resources, fallbackLng: false });
    for (const family of CORPUS) {
      for (const language of ALL_LANGUAGES) {
        const message = parseStoredMessage(family.messages[language]!);
        const native = !notNative.get('i18next')!.has(`corpus.${family.name} ${language}`);
        for (const count of COUNTS) {
          const args = argumentsFor(count);
          const expected = native ? renderMessage(message, language, args) : renderOther(message, language, args, true);
          expect(i18n.t(`corpus.${family.name}`, { ...args, lng: language }), `${language} ${family.name} ${count}`).toBe(expected);
          tally.renders['i18next']! += 1;
        }
      }
    }
  });

  it.each(VUE_I18N_VERSIONS)('%s renders what ICU renders (its # the plain number), or the other branch', async (version) => {
    const messages = JSON.parse((await download('/export/vue-i18n')).toString('utf8'));
    const rule = readmePluralRule();
    const { createI18n } = require(version) as { createI18n: (options: object) => { global: { t: (key: string, named: object, plural?: number) => string } } };
    const pluralRules = Object.fromEntries(ALL_LANGUAGES.map((language) => [language, rule(language)]));
    for (const language of ALL_LANGUAGES) {
      const { t } = createI18n({ legacy: false, locale: language, messages, pluralRules, missingWarn: false, fallbackWarn: false, warnHtmlMessage: false }).global;
      for (const family of CORPUS) {
        const message = parseStoredMessage(family.messages[language]!);
        const native = !notNative.get('vue-i18n')!.has(`corpus.${family.name} ${language}`);
        const argument = pluralArgument(message);
        for (const count of COUNTS) {
          const args = argumentsFor(count);
          const expected = native ? renderMessage(message, language, args, true) : renderOther(message, language, args, false);
          const rendered = argument ? t(`corpus.${family.name}`, args, args[argument] as number) : t(`corpus.${family.name}`, args);
          expect(rendered, `${version} ${language} ${family.name} ${count}`).toBe(expected);
          tally.renders['vue-i18n']! += 1;
        }
      }
    }
  });

  it('gen-l10n messages, read back from the ARB syntax, render what ICU renders where native', () => {
    for (const family of CORPUS) {
      for (const language of ALL_LANGUAGES) {
        const message = parseStoredMessage(family.messages[language]!);
        const printed = printFlutter(message, language, { escaping: false });
        const native = !notNative.get('flutter')!.has(`corpus.${family.name} ${language}`);
        expect(printed.native, `${language} ${family.name}`).toBe(native && printed.ok);
        if (!printed.ok || !printed.native) continue;
        const readBack = readArbMessage(printed.text, new Set(printed.placeholders.filter((p) => p.format).map((p) => p.name)), false, language);
        for (const count of COUNTS) {
          const args = argumentsFor(count);
          expect(renderMessage(parseStoredMessage(readBack), language, args), `${language} ${family.name} ${count}`).toBe(renderMessage(message, language, args));
          tally.renders['flutter']! += 1;
        }
      }
    }
  });
});
