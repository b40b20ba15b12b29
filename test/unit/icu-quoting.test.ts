/** Literal text as ICU source: intl-messageformat renders exactly the text, and plain apostrophes stay as written. */
import fc from 'fast-check';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { parseMessage } from '../../src/messages/parse-message.js';
import { literalMessage, printIcu, quoteText } from '../../src/messages/print-icu.js';

const render = (source: string, args: Record<string, unknown> = {}) => new IntlMessageFormat(source, 'en', undefined, { ignoreTag: true }).format(args as never);
const hostile = fc.string({ unit: fc.constantFrom('{', '}', "'", '#', '<', '>', '|', 'a', ' ', 'é') });

describe('ICU quoting of literal text', () => {
  it('renders exactly the text, alone, before an argument and inside a plural', () => {
    fc.assert(
      fc.property(hostile, hostile, (text, after) => {
        expect(render(literalMessage(text))).toBe(text);
        expect(render(`${quoteText(text)}{x}${quoteText(after)}`, { x: 'X' })).toBe(`${text}X${after}`);
        expect(render(`{n, plural, other {${quoteText(text, true)}#${quoteText(after, true)}}}`, { n: 3 })).toBe(`${text}3${after}`);
      }),
      { numRuns: 5000 },
    );
  });

  it('leaves ordinary apostrophes alone', () => {
    expect(literalMessage("Don't stop, it's fine")).toBe("Don't stop, it's fine");
    expect(literalMessage("it''s")).toBe("it'''s");
    expect(literalMessage("'{name}'")).toBe("'''{name}'''");
  });

  it('prints a parsed message back to itself (parse → print → parse)', () => {
    for (const source of ["It's {name}'s turn", "{n, plural, =0 {none} one {# it's} other {'#' # items}}", "{g, select, a {x'{'y} other {z}}", '{n, selectordinal, one {#st} other {#th}}']) {
      const parsed = parseMessage(source);
      if (!parsed.ok) throw new Error(parsed.error.reason);
      expect(parseMessage(printIcu(parsed.message))).toEqual(parsed);
    }
  });
});
