/**
 * vue-i18n linked messages on import (CONTRACT "Import": replaced by the linked message's text, one level
 * deep, with a warning): each inlined message, rendered by intl-messageformat, says what real vue-i18n
 * renders from the original file, set up as tolk's README says (its pluralRules, the base language as
 * fallbackLocale), called as `t(key, args, count)`; each link kept literal says why.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readVueI18nImport } from '../../src/imports/formats/vue-i18n-import.js';
import type { ImportDocument } from '../../src/imports/import-document.js';
import { VUE_I18N_VERSIONS } from '../helpers/consumers.js';
import { renderIcu } from '../helpers/message-rendering.js';
import { readmePluralRule } from '../real-apps/runtimes.js';

const require = createRequire(import.meta.url);

/** An app's files, as vue-i18n apps keep them: nested, links forward and backward, to nested keys. */
const BODY = {
  en: {
    common: { save: 'Save', greeting: 'hello {name}', hiName: '{name}, hi', files: 'no files | {count} file | {count} files', shout: 'Saved @:common.save' },
    menu: {
      plain: 'Click @:common.save now',
      literalKey: "@:{'common.save'}d",
      forward: 'See @:later.text',
      lower: 'Please @.lower:common.save it',
      upper: 'Press @.upper:common.save',
      capitalize: '@.capitalize:common.greeting',
      argument: '@:common.greeting and friends',
      plural: 'You have @:common.files',
      upperPlural: '@.upper:common.files',
      pipes: 'one: @:common.files | many: @:common.files',
      twice: '@:common.files and still @:common.files',
      nested: '@:common.shout',
      upperArgument: '@.upper:common.greeting',
      capitalizeArgument: '@.capitalize:common.hiName',
      custom: '@.snakeCase:common.save',
      missing: '@:common.nothing here',
      fromArgument: '@:{name}',
      parenthesised: '@:(common.save)',
      sentence: 'Then @.lower:common.save.',
    },
    later: { text: 'the text' },
  },
  de: {
    common: { save: 'Speichern', files: 'keine Dateien | {count} Datei | {count} Dateien' },
    menu: { plain: 'Klick @:common.save', fallback: '@:later.text auf Englisch', fallbackPlural: 'Du hast @:common.files' },
  },
  ru: {
    common: { files: '{n} файл | {n} файла | {n} файлов | {n} файла' },
    menu: { plural: 'У вас @:common.files', englishPlural: '@:english.files' },
  },
  pt: { common: { save: 'Salvar' } },
  'pt-BR': { menu: { plain: 'Clique em @:common.save' } },
};
(BODY.en as Record<string, unknown>)['english'] = { files: 'a file | {count} files' };

/** language, key → the ICU message the link becomes, and the warning naming the link. */
const INLINED: ReadonlyArray<readonly [string, string, string, RegExp]> = [
  ['en', 'menu.plain', 'Click Save now', /the link @:common\.save is replaced by the text of common\.save$/],
  ['en', 'menu.literalKey', 'Saved', /@:\{'common\.save'\} is replaced/],
  ['en', 'menu.forward', 'See the text', /@:later\.text is replaced/],
  ['en', 'menu.lower', 'Please save it', /@\.lower:common\.save is replaced .*lower-cased/],
  ['en', 'menu.upper', 'Press SAVE', /upper-cased/],
  ['en', 'menu.capitalize', 'Hello {name}', /capitalised/],
  ['en', 'menu.argument', 'hello {name} and friends', /@:common\.greeting is replaced/],
  ['en', 'menu.plural', '{count, plural, =0 {You have no files} one {You have # file} other {You have # files}}', /@:common\.files is replaced/],
  ['en', 'menu.upperPlural', '{count, plural, =0 {NO FILES} one {# FILE} other {# FILES}}', /upper-cased/],
  ['en', 'menu.pipes', '{count, plural, =0 {many: no files} one {one: # file} other {many: # files}}', /@:common\.files is replaced/],
  ['en', 'menu.twice', '{count, plural, =0 {no files and still no files} one {# file and still # file} other {# files and still # files}}', /@:common\.files is replaced/],
  ['de', 'menu.plain', 'Klick Speichern', /@:common\.save is replaced by the text of common\.save$/],
  ['de', 'menu.fallback', 'the text auf Englisch', /replaced by the text of later\.text \(en's, as vue-i18n's fallbackLocale gives it\)/],
  ['de', 'menu.fallbackPlural', '{count, plural, =0 {Du hast keine Dateien} one {Du hast # Datei} other {Du hast # Dateien}}', /@:common\.files is replaced/],
  ['ru', 'menu.plural', '{n, plural, one {У вас # файл} few {У вас # файла} many {У вас # файлов} other {У вас # файла}}', /@:common\.files is replaced/],
  ['pt-BR', 'menu.plain', 'Clique em Salvar', /text of common\.save \(pt's/],
];

/** language, key → the text kept (links literal) and why. */
const KEPT: ReadonlyArray<readonly [string, string, string, RegExp]> = [
  ['en', 'menu.upperArgument', '@.upper:common.greeting', /kept as literal text: vue-i18n upper-cases the value of \{name\} too/],
  ['en', 'menu.capitalizeArgument', '@.capitalize:common.hiName', /capitalises the value of \{name\} too/],
  ['en', 'menu.custom', '@.snakeCase:common.save', /"snakeCase" is not one of vue-i18n's modifiers/],
  ['en', 'menu.missing', '@:common.nothing here', /no message common\.nothing to link to/],
  ['en', 'menu.fromArgument', "@:'{name}'", /takes its key from the argument \{name\}/],
  ['en', 'menu.sentence', 'Then @.lower:common.save.', /no message common\.save\. to link to, .* \(vue-i18n 9–11 read a key up to a space, "\." included; @\.lower:\{'common\.save'\}\. links common\.save\)$/],
  ['en', 'menu.parenthesised', '@:(common.save)', /names no key .*vue-i18n 8's form/],
  ['ru', 'menu.englishPlural', '@:english.files', /english\.files is only in en, a plural whose forms vue-i18n would choose by ru's rules/],
];

const COUNTS = [0, 1, 2, 3, 4, 5, 11, 21, 22, 25, 101, 111];
const argsFor = (count: number) => ({ name: 'Ann', count, n: count });
const LANGUAGES = Object.keys(BODY);

const textOf = (document: ImportDocument, language: string, key: string) => document.texts.get(language)?.get(key.split('.').join('\u0000'));
const warningsOf = (document: ImportDocument, language: string, key: string) =>
  document.warnings.filter((warning) => warning.language === language && warning.key === key).map((warning) => warning.message);

describe('vue-i18n linked messages on import', () => {
  it('inlines each link whose ICU message renders what vue-i18n renders, warning that it did', async () => {
    const document = await readVueI18nImport(BODY, 'en');
    expect(document.refused).toEqual([]);
    for (const [language, key, text, warning] of INLINED) {
      expect(textOf(document, language, key), `${language} ${key}`).toBe(text);
      expect(warningsOf(document, language, key), `${language} ${key}`).toEqual(expect.arrayContaining([expect.stringMatching(warning)]));
    }
  });

  it('keeps a link literal where no ICU message says what vue-i18n renders, saying why', async () => {
    const document = await readVueI18nImport(BODY, 'en');
    for (const [language, key, text, warning] of KEPT) {
      expect(textOf(document, language, key), `${language} ${key}`).toBe(text);
      expect(warningsOf(document, language, key), `${language} ${key}`).toEqual([expect.stringMatching(warning)]);
    }
  });

  it('inlines one level deep: a link inside the linked message stays literal text, with a warning', async () => {
    const document = await readVueI18nImport(BODY, 'en');
    expect(textOf(document, 'en', 'menu.nested')).toBe('Saved @:common.save');
    expect(warningsOf(document, 'en', 'menu.nested')).toEqual([expect.stringMatching(/its own links stay literal text \(links are inlined one level deep\)/)]);
    // and the linked message itself is inlined in its own place
    expect(textOf(document, 'en', 'common.shout')).toBe('Saved Save');
  });

  // vue-i18n 9 does not look a linked key up in the fallbackLocale (it renders ''); 10 and 11 do.
  it.each(VUE_I18N_VERSIONS)('%s renders from the original files what ICU renders from the inlined messages', async (version) => {
    const document = await readVueI18nImport(BODY, 'en');
    const rule = readmePluralRule();
    const { createI18n } = require(version) as { createI18n: (options: object) => { global: { t: (key: string, named: object, plural: number) => string } } };
    for (const [language, key, , warning] of INLINED) {
      if (version === 'vue-i18n-9' && /fallbackLocale|\(pt's/.test(warning.source)) continue;
      const pluralRules = Object.fromEntries(LANGUAGES.map((tag) => [tag, rule(tag)]));
      const { t } = createI18n({ legacy: false, locale: language, fallbackLocale: 'en', messages: BODY, pluralRules, missingWarn: false, fallbackWarn: false, warnHtmlMessage: false }).global;
      for (const count of COUNTS) {
        const args = argsFor(count);
        expect(renderIcu(textOf(document, language, key)!, language, args), `${version} ${language} ${key} ${count}`).toBe(t(key, args, count));
      }
    }
  });

  it('reads a link to a key of a language that comes later in the body, and to the base language given last', async () => {
    const document = await readVueI18nImport({ de: { a: 'Nach @:b', c: '@:d' }, en: { a: 'To @:b', b: 'B', c: 'C', d: 'D' } }, 'en');
    expect(textOf(document, 'de', 'a')).toBe('Nach B');
    expect(textOf(document, 'de', 'c')).toBe('D');
    expect(textOf(document, 'en', 'a')).toBe('To B');
  });

  it('keeps a text with no links, and an @ that is no link, as the reading always did', async () => {
    const document = await readVueI18nImport({ en: { mail: 'Write to a@b.com', plain: 'Plain {x}' } }, 'en');
    expect(document.warnings).toEqual([]);
    expect(textOf(document, 'en', 'mail')).toBe('Write to a@b.com');
    expect(textOf(document, 'en', 'plain')).toBe('Plain {x}');
  });

  it('stops inlining past what a message may hold, keeping the rest of the links literal', async () => {
    const long = 'x'.repeat(9_000);
    const document = await readVueI18nImport({ en: { long, many: Array.from({ length: 30 }, () => '@:long').join(' ') } }, 'en');
    const many = textOf(document, 'en', 'many')!;
    expect(many.length).toBeLessThan(300_000);
    expect(many).toContain('@:long');
    expect(warningsOf(document, 'en', 'many')).toEqual(expect.arrayContaining([expect.stringMatching(/would pass 200000 characters/)]));
  });

  it('names each distinct link once, how often it occurs, and counts the links past ten in one warning', async () => {
    const many = Array.from({ length: 14 }, (_, index) => `@:k${index}`).join(' ');
    const document = await readVueI18nImport({ en: { a: 'A', twice: '@:a and @:a', many } }, 'en');
    expect(warningsOf(document, 'en', 'twice')).toEqual(['the link @:a is replaced by the text of a (2 times)']);
    const warnings = warningsOf(document, 'en', 'many');
    expect(warnings).toHaveLength(11);
    expect(warnings.at(-1)).toBe('and 4 more links: 0 replaced by their linked messages\' text, 4 kept as literal text');
  });

  it('reads texts of links and near-links up to the longest a file may hold in well under a second', async () => {
    const fill = (unit: string, length = 200_000) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
    // 10,000 links is the most a text is inlined with (each adds a character; a message holds 10,000)
    for (const text of [fill('@:a ', 40_000), fill('@:b ', 40_000), fill('@:a '), fill("@:{'"), fill('@.x:'), fill('@:a | '), fill('@@:'), fill('@.lower:{a}')]) {
      const start = performance.now();
      await readVueI18nImport({ en: { a: 'A', text } }, 'en');
      const ms = performance.now() - start;
      expect(ms, `${JSON.stringify(text.slice(0, 8))}…: ${ms.toFixed(0)} ms`).toBeLessThan(1_000);
    }
  });
});
