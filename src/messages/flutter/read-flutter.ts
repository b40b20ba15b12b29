/**
 * gen-l10n's default ARB syntax read back into ICU messages: text is literal up to a brace (apostrophes
 * included, so they are quoted for ICU), `{x}`, `{n, plural, …}` and `{x, select, …}`; the grammar of
 * message_parser.dart. Inside a plural on `n`, `{n}` is the `#` the export wrote it for when the template
 * declares `n` with a number format (the export's `decimalPattern`); without one it renders unformatted,
 * as ICU's `{n}` does, and stays an argument.
 */
import type { Message, MessageCase, MessageNode } from '../message.js';
import { printIcu } from '../print-icu.js';
import { readEscaped } from './escaping.js';

/** A literal run in `use-escaping: true` syntax: quoted runs and plain text, up to an unquoted brace. */
const ESCAPED_RUN = /(?:'[^']*'|[^{}'])+/y;

class ArbReader {
  private at = 0;
  constructor(private readonly text: string, private readonly formatted: ReadonlySet<string>, private readonly escaping: boolean) {}

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
    return head[2] === 'plural' ? { kind: 'plural', name, ordinal: false, cases } : { kind: 'select', name, cases };
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
 * number format; throws where that syntax is broken.
 */
export function readArbMessage(text: string, formatted: ReadonlySet<string> = new Set(), escaping = false): string {
  const reader = new ArbReader(text, formatted, escaping);
  const nodes = reader.message(null);
  if (!reader.done()) throw new Error(`a '}' closes nothing in ${JSON.stringify(text)}`);
  return printIcu(nodes);
}
