import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import { parseStoredMessage } from '../../src/messages/parse-message.js';
import { literalMessage } from '../../src/messages/print-icu.js';
import { escapeVueMessage } from '../../src/messages/vue-i18n/escape-message.js';
import { printVueI18n } from '../../src/messages/vue-i18n/print-vue-i18n.js';
import { readVueMessage } from '../../src/messages/vue-i18n/read-vue-i18n.js';

/** What ICU renders from the message a vue-i18n message reads back as. */
const unescapeVueMessage = (message: string, args: Record<string, string | number> = {}, language = 'en') =>
  new IntlMessageFormat(readVueMessage(message, language), language, undefined, { ignoreTag: true }).format(args) as string;

// Strings dense in what the escape touches (and what looks like its output), mixed with arbitrary text.
const SPECIAL = ['{', '}', '@', '|', '%', '\\', '\r', '\n', '\u2028', '\u2029', "'", "{'", "'}", "{'{'}", '\\u000D', 'a', ' ', '👋'];
const tricky = fc.array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string(), fc.string({ unit: 'binary' })), { maxLength: 20 }).map((parts) => parts.join(''));

describe('readVueMessage', () => {
  it('inverts escapeVueMessage for arbitrary text, into the literal message of that text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => readVueMessage(escapeVueMessage(text), 'en') === literalMessage(text)), { numRuns: 2000 });
  });

  it('inverts escapeVueMessage for text full of vue-i18n syntax', () => {
    fc.assert(fc.property(tricky, (text) => unescapeVueMessage(escapeVueMessage(text)) === text), { numRuns: 5000 });
  });

  it.each([
    ["{'{'}name{'}'}", '{name}'],
    ["help{'@'}example.com", 'help@example.com'],
    ["a {'|'} b {'%'}{'\\\\'}", 'a | b %\\'],
    ["{'\\u000D'}{'\\u2028'}{'\\u2029'}", '\r\u2028\u2029'],
    ["{'it\\'s'} {'\\U01F44B'}", "it's 👋"],
    ["it's 100% \\ plain", "it's 100% \\ plain"],
  ])('%j → %j', (message, text) => {
    expect(unescapeVueMessage(message)).toBe(text);
  });

  it('reads arguments as arguments and pipe forms as the plural the export wrote', () => {
    expect(readVueMessage('Hi {name}', 'en')).toBe('Hi {name}');
    expect(readVueMessage('no files | {n} file | {n} files', 'en')).toBe('{n, plural, =0 {no files} one {#} other {#}}'.replace('one {#}', 'one {# file}').replace('other {#}}', 'other {# files}}'));
    const russian = '{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}';
    expect(readVueMessage(printVueI18n(parseStoredMessage(russian), 'ru').text, 'ru')).toBe(russian);
    expect(unescapeVueMessage('{n} file | {n} files', { n: 2 })).toBe('2 files');
  });

  it('refuses pipe forms that fit no plural of the language', () => {
    expect(() => readVueMessage('a | b | c | d', 'en')).toThrow(/fit no plural/);
  });
});
