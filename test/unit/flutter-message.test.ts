import { describe, it, expect } from 'vitest';
import { parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { parseFlutterMessage } from '../../src/exports/flutter/icu-message.js';
import type { Placeholder } from '../../src/exports/flutter/types.js';

const HOSTILE = 'Ça va? 🎉 مرحبا שלום 你好 e\u0301 "q" it\'s a\\b @ | % $x 100% <b>bold</b> = , #\nline two\ttab';

/** [text, the placeholders gen-l10n's template must declare for it] */
const VALID: [string, Placeholder[]][] = [
  ['', []],
  [HOSTILE, []],
  ["It's {name}'s turn", [{ name: 'name', type: 'String' }]],
  ["'{name}'", [{ name: 'name', type: 'String' }]], // apostrophes are plain text in default mode
  ["Don''t", []],
  ['{ name }', [{ name: 'name', type: 'String' }]],
  ['{\tname\n}', [{ name: 'name', type: 'String' }]],
  ['Hi {firstName} {last_name}, {Name} {get} {other} {plural}', ['firstName', 'last_name', 'Name', 'get', 'other', 'plural'].map((name) => ({ name, type: 'String' as const }))],
  ['{count, plural, =0{none} =1{one} =2{two} few{few} many{many} other{{count} items}}', [{ name: 'count', type: 'num' }]],
  ['{n,plural,zero{z}one{o}two{t}other{#}}', [{ name: 'n', type: 'num' }]],
  ['{ n , plural , one {x} other {y} }', [{ name: 'n', type: 'num' }]],
  ['{n, plural, other{}}', [{ name: 'n', type: 'num' }]],
  ['{n} and {n, plural, one{one} other{more}}', [{ name: 'n', type: 'num' }]],
  ['{gender, select, male{He} female{She} other{They}}', [{ name: 'gender', type: 'String' }]],
  ['{x, select, b2{one} _a{u} a_b{v} other{o}}', [{ name: 'x', type: 'String' }]],
  ['{n, plural, =1{{g, select, male{he} other{they}}} other{{n} {who}}}', [{ name: 'n', type: 'num' }, { name: 'g', type: 'String' }, { name: 'who', type: 'String' }]],
  ['{plural, plural, other{x}} {select, select, other{y}}', [{ name: 'plural', type: 'num' }, { name: 'select', type: 'String' }]],
  [`${HOSTILE} {name} ${HOSTILE}`, [{ name: 'name', type: 'String' }]],
];

/** [text, fragments the reason must contain (what went wrong, and where)] */
const INVALID: [string, string[]][] = [
  ['Hello {', ["'{' at character 7 is never closed"]],
  ['a } b', ["'}' at character 3 closes no '{'"]],
  ['🎉 }', ['character 3']], // positions count characters, not UTF-16 units
  ['{}', ['expected a placeholder name at character 2', "found '}'"]],
  ['{ }', ['expected a placeholder name at character 3']],
  ['{ not an identifier }', [`after "not"`, "found 'a'"]],
  ['{1}', ['"1"', 'must start with a letter']],
  ['{_x}', ['must start with a letter']],
  ['{a|b}', ["found '|'"]],
  ['{a-b}', ["found '-'"]],
  ['{é}', ["found 'é'"]],
  ['{\u00a0name}', ['found U+00A0']],
  ['{class}', ['Dart reserved word']],
  ['{intl}', ['generated Dart code uses that name']],
  ['{localeName}', ['generated Dart code uses that name']],
  ['{n,}', ["expected 'plural' or 'select'"]],
  ['{n, number}', ['unknown argument type "number"']],
  ['{n, selectordinal, one{a} other{b}}', ['unknown argument type "selectordinal"']],
  ['{d, date, ::yMd}', ['"date"', 'DateTime']],
  ['{t, time, ::Hm}', ['"time"', 'DateTime']],
  ['{n, plural, one{a}}', ['plural at character 1 has no "other" case']],
  ['{n, plural,}', ['no "other" case']],
  ['{x, select, a{b}}', ['select at character 1 has no "other" case']],
  ['{n, plural other{a}}', [`expected ',' after "plural"`]],
  ['{n, plural, =3{a} other{b}}', ['"=3"', 'not a plural case']],
  ['{n, plural, = 1{a} other{b}}', ['"="', 'not a plural case']],
  ['{n, plural, foo{a} other{b}}', ['"foo"']],
  ['{n, plural, offset:1 other{#}}', ['"offset"']],
  ['{n, plural, one{a} one{b} other{c}}', ['"one" at character 20 repeats "one"']],
  ['{n, plural, =0{a} zero{b} other{c}}', ['"zero"', 'repeats "=0"']],
  ['{x, select, a{1} a{2} other{3}}', ['repeats "a"']],
  ['{x, select, date{a} other{b}}', ['"date"', 'cannot be a select case']],
  ['{x, select, 1a{a} other{b}}', ['"1a"', 'cannot be a select case']],
  ['{x, select, 1{a} other{b}}', ['"1"', 'cannot be a select case']],
  ['{n, plural, other {a}', ["'{' at character 1 is never closed"]],
  ['{n, plural, other{a}} }', ["'}' at character 23 closes no '{'"]],
  ['{n, plural, one{x} other{y}} {n, select, a{b} other{c}}', ['"n"', 'both as a plural count and as a select value']],
  ['{n, plural, other{{}}}', ['expected a placeholder name at character 20']],
  ['{n, plural, one{a} other{b} extra}', ['"extra"']],
  ['{x, select, other{a}', ['never closed']],
];

describe('parseFlutterMessage (gen-l10n default syntax)', () => {
  it.each(VALID)('accepts %j', (text, placeholders) => {
    expect(parseFlutterMessage(text)).toEqual({ ok: true, placeholders });
  });

  it.each(INVALID)('refuses %j, saying what and where', (text, fragments) => {
    const result = parseFlutterMessage(text);
    expect(result.ok).toBe(false);
    for (const fragment of fragments) expect(result.ok ? '' : result.reason).toContain(fragment);
  });
});

/** name → 'num' if ICU sees a plural of it anywhere, else 'String' (the types gen-l10n would infer). */
function icuPlaceholders(elements: MessageFormatElement[], into = new Map<string, string>()): Map<string, string> {
  for (const element of elements) {
    if (!('value' in element) || element.type === 0 || element.type === 8) continue; // literals and tags
    if (into.get(element.value) !== 'num') into.set(element.value, element.type === 6 ? 'num' : 'String');
    if ('options' in element) for (const option of Object.values(element.options)) icuPlaceholders(option.value, into);
  }
  return into;
}

const asMap = (placeholders: Placeholder[]) => new Map(placeholders.map((p) => [p.name, p.type]));

/**
 * ARB messages are ICU text, and every text gen-l10n accepts must mean the same to a standard ICU
 * parser. The one real difference is the apostrophe: literal in gen-l10n's default mode, but in ICU
 * `'{…}'` quotes braces (hiding placeholders) and `''` is one apostrophe. Doubling every apostrophe
 * makes ICU read them all literally, which is gen-l10n's reading, so that form is checked for every
 * text; the raw text is checked too when no apostrophe touches an ICU syntax character. Tags are
 * ignored (`ignoreTag`): ARB has none, `<b>` is text to gen-l10n.
 */
function crossCheck(text: string): void {
  const ours = parseFlutterMessage(text);
  if (!ours.ok) throw new Error(`not accepted: ${text}`);
  const options = { ignoreTag: true, requiresOtherClause: true };
  expect(icuPlaceholders(parse(text.replaceAll("'", "''"), options)), text).toEqual(asMap(ours.placeholders));
  if (!/'[{}#'<>|]/.test(text)) expect(icuPlaceholders(parse(text, options)), text).toEqual(asMap(ours.placeholders));
}

describe('cross-check with @formatjs/icu-messageformat-parser', () => {
  it.each(VALID.map(([text]) => text))('ICU reads %j with the same placeholders', (text) => crossCheck(text));

  it('shows why apostrophes next to braces are exempt from the raw check', () => {
    expect(parseFlutterMessage("'{name}'")).toMatchObject({ ok: true, placeholders: [{ name: 'name' }] });
    expect(icuPlaceholders(parse("'{name}'")).size).toBe(0); // ICU quoted the braces away
  });

  it('holds for thousands of generated messages and near-misses', () => {
    let seed = 7;
    const pick = <T>(list: readonly T[]): T => list[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % list.length]!;
    const texts = ["it's", "''", '#', '<b>', 'a|b', '100%', '$x', 'é', '🎉', 'مرحبا', '\\', '=', ',', ' '];
    const sp = () => pick(['', ' ', '\n ']);
    const message = (depth: number): string => Array.from({ length: pick([0, 1, 2, 3]) }, () => {
      const name = pick(['n', 'count', 'who', 'plural', 'other']);
      const body = () => (depth > 0 ? message(depth - 1) : pick(texts));
      return pick([
        () => pick(texts),
        () => `{${sp()}${name}${sp()}}`,
        () => `{${name},${sp()}plural,${sp()}${pick(['=0', 'one', 'few'])}${sp()}{${body()}} other{${body()}}}`,
        () => `{${name}, select, ${pick(['a', 'b2', 'male'])}{${body()}}${sp()}other${sp()}{${body()}}}`,
      ])();
    }).join('');
    let accepted = 0;
    for (let round = 0; round < 3000; round++) {
      const text = message(2);
      // A near-miss: one character dropped; whatever of those the checker accepts must hold too.
      const cut = text.length > 0 ? text.slice(0, round % text.length) + text.slice((round % text.length) + 1) : text;
      for (const candidate of [text, cut]) {
        if (!parseFlutterMessage(candidate).ok) continue;
        accepted++;
        crossCheck(candidate);
      }
    }
    expect(accepted).toBeGreaterThan(3000); // most generated messages are valid: the property is not vacuous
  });
});
