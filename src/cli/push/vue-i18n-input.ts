/**
 * Reads vue-i18n messages back into stored text: the inverse of escape-message.ts. The export writes each
 * of `{ } @ | % \` CR U+2028 U+2029 as a literal interpolation (`{'@'}`, `{'\\'}`, `{'\u000D'}`); here
 * every literal `{'…'}` becomes its content (with the literal's escapes `\\`, `\'`, `\uXXXX`,
 * `\UXXXXXX`), everything else is taken as it is. A message with a real placeholder, linked message or
 * plural (`{name}`, `@:key`, `a | b`) has no stored text that renders it, so it is refused.
 */

const LITERAL = /\{'((?:[^'\\\r\n\u2028\u2029]|\\(?:\\|'|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6}))*)'\}/g;
const LITERAL_ESCAPE = /\\(\\|'|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6})/g;
/** Syntax that may stand only inside a literal. */
const SYNTAX = /[{}@|]/;

function literalContent(body: string): string {
  return body.replace(LITERAL_ESCAPE, (_match, escape: string) => {
    if (escape === '\\' || escape === "'") return escape;
    const codePoint = Number.parseInt(escape.slice(1), 16);
    if (codePoint > 0x10ffff) throw new Error(`\\${escape} is no Unicode code point`);
    return String.fromCodePoint(codePoint);
  });
}

/** The stored text whose escapeVueMessage is `message`; throws for a message with vue-i18n syntax outside a literal. */
export function unescapeVueMessage(message: string): string {
  let text = '';
  let last = 0;
  for (const match of message.matchAll(LITERAL)) {
    const between = message.slice(last, match.index);
    if (SYNTAX.test(between)) throw syntaxError(message);
    text += between + literalContent(match[1]!);
    last = match.index + match[0].length;
  }
  const rest = message.slice(last);
  if (SYNTAX.test(rest)) throw syntaxError(message);
  return text + rest;
}

function syntaxError(message: string): Error {
  return new Error(`${JSON.stringify(message)} uses vue-i18n syntax (placeholder, linked message or plural) that no stored text exports as`);
}
