/**
 * ICU messages printed in gen-l10n's ARB syntax: the placeholders the template must declare, what the
 * default syntax cannot say (409), and — by rendering the printed message the way gen-l10n's generated
 * code does (its default-syntax grammar, Intl.pluralLogic) — the same text as intl-messageformat renders
 * from the stored message, for every count, wherever the printer says the message is native.
 */
import fc from 'fast-check';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { quoteForGenL10n, readEscaped } from '../../src/messages/flutter/escaping.js';
import { printFlutter, type FlutterMessage } from '../../src/messages/flutter/print-flutter.js';
import { parseStoredMessage } from '../../src/messages/parse-message.js';
import { pluralCategoryOf } from '../../src/messages/plural-rules.js';

const print = (source: string, language = 'en', escaping = false): FlutterMessage => printFlutter(parseStoredMessage(source), language, { escaping });
const printed = (source: string, language = 'en') => {
  const result = print(source, language);
  if (!result.ok) throw new Error(result.reason);
  return result;
};

// --- gen-l10n's generated code, modelled from message_parser.dart (default syntax) and intl.dart (pluralLogic) ---
type ArbNode = string | { name: string } | { name: string; kind: 'plural' | 'select'; cases: Map<string, ArbNode[]> };

function parseArb(text: string): ArbNode[] {
  let at = 0;
  const message = (): ArbNode[] => {
    const nodes: ArbNode[] = [];
    while (at < text.length && text[at] !== '}') {
      if (text[at] !== '{') {
        const end = text.slice(at).search(/[{}]/);
        const stop = end < 0 ? text.length : at + end;
        nodes.push(text.slice(at, stop));
        at = stop;
        continue;
      }
      const head = /^\{\s*([A-Za-z0-9_]+)\s*(?:,\s*(plural|select)\s*,\s*)?/.exec(text.slice(at))!;
      at += head[0].length;
      if (!head[2]) {
        expect(text[at]).toBe('}');
        at += 1;
        nodes.push({ name: head[1]! });
        continue;
      }
      const cases = new Map<string, ArbNode[]>();
      for (;;) {
        const key = /^\s*(=?[A-Za-z0-9_]+)\s*\{/.exec(text.slice(at));
        if (!key) break;
        at += key[0].length;
        cases.set(key[1]!, message());
        at += 1;
      }
      at += /^\s*\}/.exec(text.slice(at))![0].length;
      nodes.push({ name: head[1]!, kind: head[2] as 'plural' | 'select', cases });
    }
    return nodes;
  };
  const nodes = message();
  expect(at, `trailing text in ${text}`).toBe(text.length);
  return nodes;
}

const EXACT: Record<string, string> = { '=0': 'zero', '=1': 'one', '=2': 'two' };

function pluralLogic(cases: Map<string, ArbNode[]>, language: string, count: number): ArbNode[] {
  const get = (key: string) => cases.get(key) ?? [...cases].find(([k]) => EXACT[k] === key)?.[1];
  const other = get('other')!;
  if (count === 0 && get('zero')) return get('zero')!;
  if (count === 1 && get('one')) return get('one')!;
  if (count === 2 && get('two')) return get('two')!;
  const category = pluralCategoryOf(language, count);
  if (category === 'two') return get('two') ?? get('few') ?? other;
  return get(category) ?? other;
}

function renderArb(nodes: ArbNode[], language: string, args: Record<string, string | number>, formats: Map<string, string | undefined>): string {
  return nodes
    .map((node) => {
      if (typeof node === 'string') return node;
      const value = args[node.name]!;
      if (!('kind' in node)) {
        return formats.get(node.name) === 'decimalPattern' ? new Intl.NumberFormat(language).format(value as number) : String(value);
      }
      const branch = node.kind === 'plural' ? pluralLogic(node.cases, language, value as number) : (node.cases.get(String(value)) ?? node.cases.get('other')!);
      return renderArb(branch, language, args, formats);
    })
    .join('');
}

function renderBoth(source: string, language: string, args: Record<string, string | number>) {
  const result = printed(source, language);
  const formats = new Map(result.placeholders.map((p) => [p.name, p.format]));
  const flutter = renderArb(parseArb(result.text), language, args, formats);
  const icu = new IntlMessageFormat(source, language, undefined, { ignoreTag: true }).format(args) as string;
  return { result, flutter, icu };
}

const COUNTS = [0, 1, 2, 3, 5, 11, 21, 100, 1.5, 1234];

describe('printFlutter: gen-l10n default syntax', () => {
  it('writes text as is (apostrophes are literal there) and declares every placeholder with its type', () => {
    expect(printed("It's {name}'s turn")).toMatchObject({ text: "It's {name}'s turn", native: true, placeholders: [{ name: 'name', type: 'String' }] });
    expect(printed("Don''t")).toMatchObject({ text: "Don't", placeholders: [] });
    expect(printed('{n} and {n, plural, one {one} other {more}}').placeholders).toEqual([{ name: 'n', type: 'num' }]);
    expect(printed('{gender, select, male {He} female {She} other {They}} {who}').placeholders).toEqual([
      { name: 'gender', type: 'String' },
      { name: 'who', type: 'String' },
    ]);
  });

  it('writes # as the plural placeholder, formatted like ICU formats the number', () => {
    const result = printed('{count, plural, one {# item} other {# items}}');
    expect(result.text).toBe('{count, plural, one{{count} item} other{{count} items}}');
    expect(result.placeholders).toEqual([{ name: 'count', type: 'num', format: 'decimalPattern' }]);
    for (const language of ['en', 'de', 'fr']) {
      for (const count of COUNTS) {
        const { flutter, icu } = renderBoth('{count, plural, one {# item} other {# items}}', language, { count });
        expect(flutter, `${language} ${count}`).toBe(icu);
      }
    }
  });

  it('refuses what gen-l10n cannot carry at all, naming why (the export answers 409)', () => {
    const refusals: Array<[string, string]> = [
      ["Braces '{' here", '?escaping=true'],
      ['{1} first', 'must start with a letter'],
      ['{class}', 'Dart reserved word'],
      ['{intl}', 'generated Dart code uses that name'],
      ['{x, plural, other {a}} {x, select, other {b}}', 'one type'],
    ];
    for (const [source, reason] of refusals) {
      const result = print(source);
      expect(result.ok, source).toBe(false);
      if (!result.ok) expect(result.reason, source).toContain(reason);
    }
  });

  it('says literal braces with ?escaping=true, quoted so that gen-l10n reads back exactly the text', () => {
    const result = print("Braces '{' and '}', it''s {name}", 'en', true);
    expect(result).toMatchObject({ ok: true, text: "Braces '{' and '}', it''s {name}" });
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('{', '}', "'", 'a', ' ') }), (text) => {
        let written: string;
        try {
          written = quoteForGenL10n(text);
        } catch {
          return; // refused: never written wrong
        }
        expect(readEscaped(written)).toBe(text);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('printFlutter: plurals as Intl.pluralLogic picks them', () => {
  const NATIVE: Array<[string, string]> = [
    ['en', '{n, plural, =0 {none} one {# item} other {# items}}'],
    ['ru', '{n, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}'],
    ['ar', '{n, plural, zero {صفر} one {واحد} two {اثنان} few {# قليلة} many {# كثيرة} other {# أخرى}}'],
    ['cy', '{n, plural, zero {dim} one {un} two {dau} few {tri} many {chwech} other {#}}'],
    ['ja', '{n, plural, other {#個}}'],
    ['pl', 'Masz {n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}.'],
    ['lv', '{n, plural, zero {# nulle} one {# viens} other {# citi}}'],
    ['en', '{n, plural, =1 {exactly one} one {one-ish} other {#}}'],
    ['en', '{g, select, male {{n, plural, one {his #} other {his # items}}} other {{n, plural, one {their #} other {their # items}}}}'],
  ];
  it.each(NATIVE)('%s %s renders like ICU for every count', (language, source) => {
    expect(printed(source, language).native).toBe(true);
    for (const count of COUNTS) {
      for (const g of ['male', 'x']) {
        const { flutter, icu } = renderBoth(source, language, { n: count, g });
        expect(flutter, `${count} ${g}`).toBe(icu);
      }
    }
  });

  const NOT_NATIVE: Array<[string, string, string]> = [
    ['en', '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}', '{n}th'],
    ['en', '{n, plural, =3 {three} other {#}}', '{n}'],
    // lv: `=0` and the CLDR zero category (10, 20, …) are one parameter of pluralLogic
    ['lv', '{n, plural, =0 {nav} zero {# nulle} one {# viens} other {# citi}}', '{n} citi'],
    // ru: `=1` and `one` (21, 31, …) are one parameter
    ['ru', '{n, plural, =1 {один} one {# один} few {#} many {#} other {#}}', '{n}'],
  ];
  it.each(NOT_NATIVE)('%s %s is not native: written as its other branch', (language, source, other) => {
    expect(printed(source, language)).toMatchObject({ native: false, text: other });
  });

  it('drops a category the language never uses, which gen-l10n would pick for 0, 1 or 2', () => {
    // ja has only `other`; an `one` case there is dead in ICU but would answer 1 in gen-l10n.
    const source = '{n, plural, one {one} other {#}}';
    expect(printed(source, 'ja').text).toBe('{n, plural, other{{n}}}');
    for (const count of COUNTS) expect(renderBoth(source, 'ja', { n: count }).flutter).toBe(renderBoth(source, 'ja', { n: count }).icu);
  });
});
