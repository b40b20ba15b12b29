/**
 * gen-l10n's default ARB syntax read back into ICU messages: text is literal up to a brace (apostrophes
 * included, so they are quoted for ICU), `{x}`, `{n, plural, …}` and `{x, select, …}`; the grammar of
 * message_parser.dart. Inside a plural on `n`, `{n}` is the `#` the export wrote it for when the template
 * declares `n` with a number format (the export's `decimalPattern`); without one it renders unformatted,
 * as ICU's `{n}` does, and stays an argument.
 */
import type { Message, MessageCase, MessageNode } from '../message.js';
import { printIcu } from '../print-icu.js';
import { PLURAL_SAMPLES, pluralCategoriesOf, pluralCategoryOf } from '../plural-rules.js';
import { readEscaped } from './escaping.js';

const EXACT_OF = { zero: '=0', one: '=1', two: '=2' } as const;

/**
 * A plural's cases as gen-l10n means them in `language`: Intl.pluralLogic passes `=0`, `=1`, `=2` as the
 * zero, one and two parameters, which serve exactly 0, 1, 2 and also the language's own category
 * (Russian `=1` is also 21, 31, …), and it uses `zero`, `one`, `two` for exactly 0, 1, 2 even where the
 * language has no such category (English `zero`). So: an exact case also becomes its category where the
 * language's category holds more numbers than it and the message lacks the category; a category the
 * language lacks becomes its exact case.
 */
function genL10nCases(cases: MessageCase[], language: string | undefined): MessageCase[] {
  if (!language) return cases;
  const categories = new Set<string>(pluralCategoriesOf(language));
  const has = (key: string) => cases.some((c) => c.key === key);
  const result: MessageCase[] = [];
  for (const c of cases) {
    const exact = EXACT_OF[c.key as keyof typeof EXACT_OF];
    if (exact && !categories.has(c.key)) {
      if (!has(exact)) result.push({ key: exact, message: c.message });
      continue;
    }
    result.push(c);
  }
  for (const [category, exact] of Object.entries(EXACT_OF)) {
    const exactCase = cases.find((c) => c.key === exact);
    if (!exactCase || !categories.has(category) || has(category)) continue;
    // Only where the category holds more than the exact number (Russian one: 21, 31…; French one: 0): English one is 1 alone.
    const value = Number(exact.slice(1));
    if (PLURAL_SAMPLES.some((count) => count !== value && pluralCategoryOf(language, count) === category)) result.push({ key: category, message: exactCase.message });
  }
  const order = ['=0', '=1', '=2', 'zero', 'one', 'two', 'few', 'many', 'other'];
  return result.sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
}

/** A literal run in `use-escaping: true` syntax: quoted runs and plain text, up to an unquoted brace. */
const ESCAPED_RUN = /(?:'[^']*'|[^{}'])+/y;

/**
 * Plurals and selects one message may nest: a stored message (10,000 characters) nests at most ~550
 * (`{a,select,other{…}}` is 18 of them), so this refuses no export; it keeps the reader, which
 * recurses, far from the call stack's end on a long import text.
 */
const MAX_NESTING = 1_000;

class ArbReader {
  private at = 0;
  private depth = 0;
  constructor(
    private readonly text: string,
    private readonly formatted: ReadonlySet<string>,
    private readonly escaping: boolean,
    private readonly language: string | undefined,
  ) {}

  message(count: string | null): MessageNode[] {
    const nodes: MessageNode[] = [];
    while (this.at < this.text.length && this.text[this.at] !== '}') {
      if (this.escaping && this.text[this.at] !== '{') {
        ESCAPED_RUN.lastIndex = this.at;
        const run = ESCAPED_RUN.exec(this.text);
        const literal = run ? readEscaped(run[0]) : undefined;
        if (!run || literal === undefined) throw new Error(`an unmatched quote at character ${this.at + 1} of ${JSON.stringify(this.text)}`);
        nodes.push({ kind: 'text', value: literal });
        this.at = ESCAPED_RUN.lastIndex;
        continue;
      }
      if (this.text[this.at] !== '{') {
        const next = this.text.slice(this.at).search(/[{}]/);
        const end = next < 0 ? this.text.length : this.at + next;
        nodes.push({ kind: 'text', value: this.text.slice(this.at, end) });
        this.at = end;
        continue;
      }
      nodes.push(this.argument(count));
    }
    return nodes;
  }

  private argument(count: string | null): MessageNode {
    if (this.depth >= MAX_NESTING) throw new Error(`plurals and selects nest deeper than ${MAX_NESTING.toLocaleString('en')} at character ${this.at + 1}`);
    this.depth += 1;
    try {
      return this.argumentAt(count);
    } finally {
      this.depth -= 1;
    }
  }

  private argumentAt(count: string | null): MessageNode {
    const head = this.take(/\{\s*([A-Za-z0-9_]+)\s*(?:,\s*(plural|select)\s*,\s*)?/y, "a placeholder after '{'");
    const name = head[1]!;
    if (!head[2]) {
      this.take(/\s*\}/y, `'}' after {${name}`);
      return name === count ? { kind: 'pound' } : { kind: 'argument', name };
    }
    const cases: MessageCase[] = [];
    for (;;) {
      const key = /\s*(=?[A-Za-z0-9_]+)\s*\{/y;
      key.lastIndex = this.at;
      const match = key.exec(this.text);
      if (!match) break;
      this.at = key.lastIndex;
      const message: Message = this.message(head[2] === 'plural' && this.formatted.has(name) ? name : count);
      this.take(/\}/y, `'}' closing the case ${match[1]}`);
      cases.push({ key: match[1]!, message });
    }
    this.take(/\s*\}/y, `'}' closing the ${head[2]} on ${name}`);
    return head[2] === 'plural' ? { kind: 'plural', name, ordinal: false, cases: genL10nCases(cases, this.language) } : { kind: 'select', name, cases };
  }

  private take(pattern: RegExp, expected: string): RegExpExecArray {
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    if (!match) throw new Error(`expected ${expected} at character ${this.at + 1} of ${JSON.stringify(this.text)}`);
    this.at = pattern.lastIndex;
    return match;
  }

  done(): boolean {
    return this.at >= this.text.length;
  }
}

/**
 * The ICU message of one ARB message in gen-l10n's default syntax (or, with `escaping`, its
 * `use-escaping: true` syntax), `formatted` naming the placeholders the template declares with a
 * number format; throws where that syntax is broken. With `language`, plural cases mean what gen-l10n
 * makes of them in that language (genL10nCases).
 */
export function readArbMessage(text: string, formatted: ReadonlySet<string> = new Set(), escaping = false, language?: string): string {
  const reader = new ArbReader(text, formatted, escaping, language);
  const nodes = reader.message(null);
  if (!reader.done()) throw new Error(`a '}' closes nothing in ${JSON.stringify(text)}`);
  return printIcu(nodes);
}
