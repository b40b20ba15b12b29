/**
 * Messages back to ICU source: the canonical printing (`{n, plural, one {# item} other {# items}}`),
 * and the quoting that turns any text into the message rendering exactly that text.
 */
import type { Message, MessageCase } from './message.js';

/** ICU source of `message`: parsing it again gives the same message. */
export function printIcu(message: Message, inPlural = false): string {
  let source = '';
  for (const node of message) {
    switch (node.kind) {
      case 'text':
        source += quoteText(node.value, inPlural);
        break;
      case 'argument':
        source += `{${node.name}}`;
        break;
      case 'pound':
        source += '#';
        break;
      case 'plural':
        source += `{${node.name}, ${node.ordinal ? 'selectordinal' : 'plural'}, ${printCases(node.cases, true)}}`;
        break;
      case 'select':
        // formatjs reads `#` as the number only directly inside a plural's case, not inside a select there.
        source += `{${node.name}, select, ${printCases(node.cases, false)}}`;
        break;
    }
  }
  return source;
}

function printCases(cases: readonly MessageCase[], inPlural: boolean): string {
  return cases.map((c) => `${c.key} {${printIcu(c.message, inPlural)}}`).join(' ');
}

/**
 * Literal text as ICU source. An apostrophe is doubled only where ICU would read it as quoting: before
 * another apostrophe, a brace, `<` or `>` (formatjs quotes those even without tags), `#` inside a plural,
 * or at the end (what follows may be an argument) — so `don't` stays `don't`. From the first syntax
 * character on, the rest is one quoted run with every apostrophe doubled: one run, because a run closed
 * and another opened right after it would read the closing and opening apostrophes as one literal one.
 */
export function quoteText(text: string, inPlural = false): string {
  const first = text.search(inPlural ? /[{}#]/ : /[{}]/);
  const plain = first < 0 ? text : text.slice(0, first);
  const head = plain.replace(inPlural ? /'(?=['{}<>#]|$)/g : /'(?=['{}<>]|$)/g, "''");
  if (first < 0) return head;
  return `${head}'${text.slice(first).replaceAll("'", "''")}'`;
}

/** The message whose rendering is `text` exactly: how texts from before the message rule are kept. */
export function literalMessage(text: string): string {
  return quoteText(text);
}
