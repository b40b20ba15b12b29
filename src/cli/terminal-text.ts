/**
 * What the CLI prints of text it did not write itself (a server's messages and reports, stored texts,
 * file names), made harmless to a terminal: C0 and C1 control characters (ESC, BEL, CSI…) and the bidi
 * overrides and isolates would otherwise move the cursor, retitle the window, or reorder what is shown.
 * Every print of such text goes through one of these two functions.
 */

/** C0 (newline and tab too: the CLI lays out its own lines), DEL, C1, and U+202A–U+202E, U+2066–U+2069. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same, less what JSON.stringify already escapes (C0). */
const CONTROL_AFTER_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const hex = (character: string, digits: number) => character.charCodeAt(0).toString(16).padStart(digits, '0');

/** `text` with each control or bidi character shown as its escape (`\x1b`, `\u202e`): visible, inert, one line. */
export function printable(text: string): string {
  return text.replace(CONTROL, (character) => (character.charCodeAt(0) <= 0xff ? `\\x${hex(character, 2)}` : `\\u${hex(character, 4)}`));
}

/** `value` as one line of JSON with those characters as `\u` escapes: the same value to a parser, inert to a terminal. */
export function jsonLine(value: unknown): string {
  return String(JSON.stringify(value)).replace(CONTROL_AFTER_JSON, (character) => `\\u${hex(character, 4)}`);
}
