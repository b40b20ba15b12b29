import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unescapeVueMessage } from '../../src/cli/push/vue-i18n-input.js';
import { escapeVueMessage } from '../../src/exports/vue-i18n/escape-message.js';

// Strings dense in what the escape touches (and what looks like its output), mixed with arbitrary text.
const SPECIAL = ['{', '}', '@', '|', '%', '\\', '\r', '\n', '\u2028', '\u2029', "'", "{'", "'}", "{'{'}", '\\u000D', 'a', ' ', '👋'];
const tricky = fc.array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string(), fc.string({ unit: 'binary' })), { maxLength: 20 }).map((parts) => parts.join(''));

describe('unescapeVueMessage', () => {
  it('inverts escapeVueMessage for arbitrary text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => unescapeVueMessage(escapeVueMessage(text)) === text), { numRuns: 2000 });
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

  it.each(['Hi {name}', '@:linked', 'Tom | Jerry', "{'a'", '}', "{ 'a' }"])('refuses %j', (message) => {
    expect(() => unescapeVueMessage(message)).toThrow(/vue-i18n syntax/);
  });
});
