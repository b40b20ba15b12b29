// vue-i18n compiles every message string; stored text must come out of t(key) unchanged in 9, 10 and 11.
// Each character the compiler would read as syntax becomes a literal interpolation `{'…'}`, which renders its
// content verbatim in every version. Findings from @intlify/message-compiler (tokenizer.ts, scanner.ts,
// parser.ts) and from loading messages into each version:
//   { }   open/close a placeholder: `{name}` renders "" without params, a lone `{` swallows the rest of the
//         message, a lone `}` is "Unbalanced closing brace" (t() throws in 11).
//   @     starts a linked message (`@:key`, `@.upper:key`): `a@b.com` is "Invalid linked format" (t() throws
//         in 11; 9/10 log it and fall back to the source), `@:linked` renders "" in 9/10 and "linked" in 11.
//   |     separates plural forms: `Tom | Jerry` renders "Tom".
//   %     vue-i18n 9 reads `%{` as Rails-style modulo interpolation, even in front of an escaped brace
//         (`%{'{'}` renders "{"), and its tokenizer hangs on `a%%{x}`. Plain text in 10 and 11.
//   \     11.3+ reads `\\ \{ \} \@ \|` in text as escapes (`a\\b` renders "a\b"), 9/10 and 11.0–11.2 do not:
//         only a literal gives one result everywhere. Inside a literal `\\` is one backslash in every version.
//   CR, U+2028, U+2029   the scanner folds CRLF, LS and PS into LF, so a stored CRLF would render as LF. They
//         cannot stand raw in a literal either (a line break ends it), hence the literal's `\uXXXX` escape.
// Left as is: `'` is syntax only inside a placeholder, and stored text never lands inside one; `$ : . ( )`
// matter only inside a placeholder or after `@`, which the escapes above rule out; spaces and newlines are
// text except before `|`, which is escaped.
const SYNTAX = /[{}@|%\\\r\u2028\u2029]/g;

const LITERAL: Readonly<Record<string, string>> = {
  '{': "{'{'}",
  '}': "{'}'}",
  '@': "{'@'}",
  '|': "{'|'}",
  '%': "{'%'}",
  '\\': "{'\\\\'}",
  '\r': "{'\\u000D'}",
  '\u2028': "{'\\u2028'}",
  '\u2029': "{'\\u2029'}",
};

/** Turns stored text into a vue-i18n (9–11) message whose t(key) without params renders exactly that text. */
export function escapeVueMessage(text: string): string {
  return text.replace(SYNTAX, (ch) => LITERAL[ch] ?? ch);
}
