/**
 * Literal text in gen-l10n's `use-escaping: true` syntax. Its lexer (message_parser.dart,
 * lexIntoTokens) reads `'[^']*'` as quoted text, `''` as one apostrophe, and a quoted run right after
 * an apostrophe keeps its opening quote ("Flutter''s" → "Flutter's"). So braces are quoted run by run
 * and every other apostrophe doubled; a result its lexer would read differently is refused.
 */

/** The text as gen-l10n escaping syntax; throws when its lexer could not read it back as exactly `text`. */
export function quoteForGenL10n(text: string): string {
  const written = text.replace(/'/g, "''").replace(/[{}]+/g, (run) => `'${run}'`);
  if (readEscaped(written) !== text) throw new Error(`gen-l10n's escaping syntax cannot write ${JSON.stringify(text)}`);
  return written;
}

const ESCAPED = /'[^']*'/y;
const UNESCAPED = /[^{}']+/y;

/** What gen-l10n's lexer makes of literal text in escaping mode (the string branch of lexIntoTokens). */
export function readEscaped(source: string): string | undefined {
  let text = '';
  let at = 0;
  while (at < source.length) {
    ESCAPED.lastIndex = at;
    const escaped = ESCAPED.exec(source);
    if (escaped) {
      const run = escaped[0];
      if (run === "''") text += "'";
      else if (at > 1 && source[at - 1] === "'") text += run.slice(0, -1);
      else text += run.slice(1, -1);
      at = ESCAPED.lastIndex;
      continue;
    }
    UNESCAPED.lastIndex = at;
    const plain = UNESCAPED.exec(source);
    if (!plain) return undefined; // an unquoted brace or an unmatched quote
    text += plain[0];
    at = UNESCAPED.lastIndex;
  }
  return text;
}
