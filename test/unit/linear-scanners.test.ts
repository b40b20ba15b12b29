/**
 * Every reading of user text is linear (issue 30: H2, H3 and the regular expressions found beside
 * them). Each scanner that replaced a backtracking regular expression gives what the expression gave
 * (property tests against the old expression, kept here as the oracle), and each takes the worst
 * case of the old one at the largest size it can meet (10,000 characters for a stored message,
 * MAX_IMPORT_TEXT_LENGTH for an import text before it is length-checked) in milliseconds.
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_TEXT_LENGTH } from '../../src/imports/import-limits.js';
import { readArbMessage } from '../../src/messages/flutter/read-flutter.js';
import { i18nextInterpolations, printI18next } from '../../src/messages/i18next/print-i18next.js';
import { readI18nextText } from '../../src/messages/i18next/read-i18next.js';
import { doubledBraceName, parseMessage } from '../../src/messages/parse-message.js';
import { printVueI18n } from '../../src/messages/vue-i18n/print-vue-i18n.js';
import { readForms, readVueMessage } from '../../src/messages/vue-i18n/read-vue-i18n.js';
import { appendNode, type MessageNode } from '../../src/messages/message.js';
import { UNSTORABLE, isUnstorable } from '../../src/domain/shared/storable-text.js';
import { isEmailAddress } from '../../src/domain/users/create-user.js';

/** Bound for one worst case at its largest size (the old expressions took 3–120 s; these take a few ms). */
const WORST_CASE_MS = 500;

function expectFast(label: string, work: () => unknown): void {
  const start = performance.now();
  try {
    work();
  } catch {
    // a refusal is an answer too: what counts is how long it took
  }
  const ms = performance.now() - start;
  expect(ms, `${label}: ${ms.toFixed(0)} ms`).toBeLessThan(WORST_CASE_MS);
}

/** Strings over the characters each syntax cares about, so that the properties meet its corner cases. */
const syntaxText = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 40 }).map((parts) => parts.join(''));

// The old expressions, as the oracles of what the scanners must find.
const OLD_DOUBLED = /\{\{\s*-?\s*([A-Za-z0-9_]+)[^{}]*\}\}/;
const OLD_VUE_TOKEN = /\{'((?:[^'\\\r\n\u2028\u2029]|\\(?:\\|'|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6}))*)'\}|\{\s*([A-Za-z0-9_]+)\s*\}|\s*\|\s*/g;
const OLD_I18NEXT = /\{\{(.+?)\}\}/g;

/** The old vue-i18n tokenizer's forms, with literal contents left raw (the scanner's own literalContent reads them). */
function oldVueForms(message: string): MessageNode[][] {
  const forms: MessageNode[][] = [[]];
  let last = 0;
  const text = (value: string) => {
    if (value !== '') forms.at(-1)!.push({ kind: 'text', value });
  };
  for (const match of message.matchAll(OLD_VUE_TOKEN)) {
    text(message.slice(last, match.index));
    if (match[1] !== undefined) text(match[1]);
    else if (match[2] !== undefined) forms.at(-1)!.push({ kind: 'argument', name: match[2] });
    else forms.push([]);
    last = match.index + match[0].length;
  }
  text(message.slice(last));
  return forms.map((form) => {
    const merged: MessageNode[] = [];
    for (const node of form) appendNode(merged, node);
    return merged;
  });
}

describe('the scanners find what the old expressions found', () => {
  it("the ICU error hint's i18next name", () => {
    fc.assert(
      fc.property(syntaxText(['{', '}', ' ', '\t', '-', 'a', '1', '_', '.', '\n']), (text) => {
        expect(doubledBraceName(text)).toBe(OLD_DOUBLED.exec(text)?.[1]);
      }),
      { numRuns: 3000 },
    );
  });

  it('vue-i18n pipe forms, arguments and literals', () => {
    // Without backslashes the literal contents are the same raw and read.
    fc.assert(
      fc.property(syntaxText(['{', '}', "'", '|', ' ', '\n', 'a', 'x', '_']), (text) => {
        expect(readForms(text)).toEqual(oldVueForms(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('i18next interpolations as i18next finds them', () => {
    fc.assert(
      fc.property(syntaxText(['{', '}', 'a', ' ', '\n', ',']), (text) => {
        expect(i18nextInterpolations(text)).toEqual(text.match(OLD_I18NEXT) ?? []);
      }),
      { numRuns: 3000 },
    );
  });

  it('unstorable text, by the loop for short texts and the expression for long ones', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00'), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(isUnstorable(text)).toBe(UNSTORABLE.test(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the worst cases at the largest sizes take milliseconds', () => {
  const message = 10_000;
  const imported = MAX_IMPORT_TEXT_LENGTH;
  const fill = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

  it('H2: the ICU parse and its hint on a text that does not parse', () => {
    const cases = [
      `{{${' '.repeat(3_000)}${'a'.repeat(6_998)}`,
      `{{-${' '.repeat(4_998)}${'a'.repeat(4_998)}`,
      fill('{{ a', message),
      fill('{', message),
      fill("{'", message),
      fill('{a, plural, other {', message),
      fill('{a,select,other{', message),
      fill('%{a', message),
    ];
    for (const text of cases) {
      expectFast(`parseMessage(${JSON.stringify(text.slice(0, 12))}…)`, () => expect(parseMessage(text).ok).toBe(false));
    }
  });

  it('H3: vue-i18n messages of spaces, braces, quotes and pipes', () => {
    for (const text of [`a${' '.repeat(imported - 2)}b`, fill('{ ', imported), fill("{'", imported), fill(' | ', imported), fill('{ a ', imported)]) {
      expectFast(`readVueMessage(${JSON.stringify(text.slice(0, 6))}…)`, () => readVueMessage(text, 'en'));
    }
    expectFast('printVueI18n of a plural whose forms hold inner spaces', () =>
      printVueI18n([{ kind: 'plural', name: 'n', ordinal: false, cases: [{ key: 'one', message: [{ kind: 'text', value: `a${' '.repeat(message)}b` }] }, { key: 'other', message: [{ kind: 'text', value: 'x' }] }] }], 'en'),
    );
  });

  it('i18next texts read and printed', () => {
    for (const text of [fill('{{ ', imported), fill('{{a ', imported), fill('{{-', imported), fill('{{a, number ', imported)]) {
      expectFast(`readI18nextText(${JSON.stringify(text.slice(0, 6))}…)`, () => readI18nextText(text));
    }
    expectFast('i18nextInterpolations of 10,000 braces', () => expect(i18nextInterpolations(fill('{', message))).toEqual([]));
    expectFast('printI18next of literal braces', () => printI18next([{ kind: 'text', value: fill('{', message) }], 'en'));
  });

  it('ARB messages, nested past the reader\'s limit or full of quotes and braces', () => {
    expect(() => readArbMessage(fill('{a,plural,other{', imported))).toThrow(/nest deeper than 1,000/);
    for (const text of [fill('{a,plural,other{', imported), fill("'", imported), fill("a'{", imported), fill('{ ', imported), fill('{a, select, b ', imported)]) {
      expectFast(`readArbMessage(${JSON.stringify(text.slice(0, 6))}…)`, () => readArbMessage(text));
      expectFast(`readArbMessage(${JSON.stringify(text.slice(0, 6))}…, escaping)`, () => readArbMessage(text, new Set(), true));
    }
  });

  it('unstorable text in a 16 MiB string', () => {
    for (const text of [fill('\ud800', 16 * 1024 * 1024), fill('\udc00a', 16 * 1024 * 1024), fill('a', 16 * 1024 * 1024)]) {
      expectFast('isUnstorable', () => isUnstorable(text));
    }
  });

  it('an e-mail address of 200,000 dots (tolk users create takes it unbounded)', () => {
    expectFast('isEmailAddress', () => expect(isEmailAddress(`a@${'.'.repeat(200_000)} `)).toBe(false));
    expect(isEmailAddress('ann@example.com')).toBe(true);
  });
});
