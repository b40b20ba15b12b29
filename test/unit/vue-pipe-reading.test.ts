/**
 * vue-i18n pipe forms read back as the export writes them (CONTRACT "Messages"/"Import"): one form per CLDR
 * category of the language in canonical order, with the `=0` form first when there is one form more. So
 * in ja (other alone) `a | b` is `=0 | other`, not vue-i18n's default `one | other`. For every class of
 * language the reading is the printer's exact inverse, and real vue-i18n, set up with the README's
 * pluralRules, renders from the pipe forms what ICU renders from the message they are read as.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseStoredMessage } from '../../src/messages/parse-message.js';
import { pluralCategoriesOf } from '../../src/messages/plural-rules.js';
import { printIcu } from '../../src/messages/print-icu.js';
import { printVueI18n } from '../../src/messages/vue-i18n/print-vue-i18n.js';
import { readVueMessage } from '../../src/messages/vue-i18n/read-vue-i18n.js';
import { VUE_I18N_VERSIONS } from '../helpers/consumers.js';
import { poundsAsArguments, renderIcu } from '../helpers/message-rendering.js';
import { readmePluralRule } from '../real-apps/runtimes.js';

const require = createRequire(import.meta.url);

/** Languages by how many CLDR categories they have (qu: none of its own in the runtime, so `other` alone). */
const CLASSES: Record<string, readonly string[]> = {
  '1 (other)': ['ja', 'zh', 'ko', 'qu'],
  '2 (one, other)': ['en', 'de'],
  '3': ['fr', 'he', 'lv'],
  '4': ['ru', 'pl'],
  '5': ['ga'],
  '6': ['ar', 'cy'],
};
const LANGUAGES = Object.values(CLASSES).flat();
const COUNTS = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 21, 22, 25, 100, 101, 102, 111, 1000000];

/** Pipe forms, each naming its place and showing the count. */
const pipes = (count: number) => Array.from({ length: count }, (_, index) => `form${index} {count}`).join(' | ');

/** The pipe messages the export writes in `language`: one form per category, and the same with an `=0` form first. */
function exportedShapes(language: string): Array<{ pipes: string; keys: string[] }> {
  const categories = [...pluralCategoriesOf(language)];
  const shapes = [{ pipes: pipes(categories.length + 1), keys: ['=0', ...categories] }];
  // one category alone is no pipe at all: a plain message
  if (categories.length > 1) shapes.unshift({ pipes: pipes(categories.length), keys: categories });
  return shapes;
}

describe('vue-i18n pipe forms read as the export writes them', () => {
  it('ja: two forms are =0 and other (its one category), not one and other', () => {
    expect(readVueMessage('なし | {count} 個', 'ja')).toBe('{count, plural, =0 {なし} other {# 個}}');
    expect(readVueMessage('沒有 | {count} 個', 'zh-Hant')).toBe('{count, plural, =0 {沒有} other {# 個}}');
    expect(readVueMessage('a | b', 'ko')).toBe('{count, plural, =0 {a} other {b}}');
  });

  it('a locale written with an underscore (pt_BR, as file names often are) follows its language\'s categories', () => {
    expect(readVueMessage('a | b | c', 'pt_BR')).toBe('{count, plural, one {a} many {b} other {c}}');
    expect(readVueMessage('a | b', 'en_US')).toBe('{count, plural, one {a} other {b}}');
    expect(readVueMessage('a | b | c | d', 'sr_Latn')).toBe('{count, plural, =0 {a} one {b} few {c} other {d}}');
  });

  for (const [size, languages] of Object.entries(CLASSES)) {
    it.each(languages)(`${size} categories: %s reads each exported shape as its cases in order, and prints it back to the same text`, (language) => {
      for (const shape of exportedShapes(language)) {
        const read = readVueMessage(shape.pipes, language);
        const message = parseStoredMessage(read);
        expect(message, read).toHaveLength(1);
        const plural = message[0]!;
        expect(plural.kind === 'plural' && plural.cases.map((c) => c.key), `${language} ${shape.pipes}`).toEqual(shape.keys);
        const printed = printVueI18n(message, language);
        expect(printed, `${language} ${shape.pipes}`).toEqual({ text: shape.pipes, native: true });
      }
    });
  }

  it.each(VUE_I18N_VERSIONS)('%s with the README\'s pluralRules picks, for every count, the form ICU picks from the message read', (version) => {
    const rule = readmePluralRule();
    const { createI18n } = require(version) as { createI18n: (options: object) => { global: { t: (key: string, named: object, plural: number) => string } } };
    for (const language of LANGUAGES) {
      const shapes = exportedShapes(language);
      const messages = { [language]: Object.fromEntries(shapes.map((shape, index) => [`shape${index}`, shape.pipes])) };
      const { t } = createI18n({ legacy: false, locale: language, messages, pluralRules: { [language]: rule(language) }, missingWarn: false, fallbackWarn: false, warnHtmlMessage: false }).global;
      shapes.forEach((shape, index) => {
        // vue-i18n writes the count as the plain number (its one known difference): compare with `#` as `{count}`
        const icu = printIcu(poundsAsArguments(parseStoredMessage(readVueMessage(shape.pipes, language)), 'count'));
        for (const count of COUNTS) {
          expect(t(`shape${index}`, { count }, count), `${version} ${language} ${shape.pipes} ${count}`).toBe(renderIcu(icu, language, { count }));
        }
      });
    }
  });
});
