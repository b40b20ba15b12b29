/**
 * Text no store can keep faithfully: NUL (PostgreSQL rejects it in text columns) and lone UTF-16
 * surrogates (they would be stored as U+FFFD, silently changing the text). The request guard and
 * the import (whose archives no guard sees) both refuse it. Linear: each alternative looks at one code
 * unit and at most one neighbour, so a text of any length costs one pass.
 */
export const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_MESSAGE = 'text must not contain NUL characters or unpaired UTF-16 surrogates';

/** Below this length a loop over the code units beats calling the regular expression (most JSON strings are short). */
const SHORT = 32;

/** Whether `text` holds what UNSTORABLE matches: a NUL or an unpaired surrogate. */
export function isUnstorable(text: string): boolean {
  if (text.length >= SHORT) return UNSTORABLE.test(text);
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit === 0) return true;
    if (unit < 0xd800 || unit > 0xdfff) continue;
    // A high surrogate must be followed by a low one, which it then takes; a low one alone is unpaired.
    if (unit > 0xdbff || i + 1 === text.length || (text.charCodeAt(i + 1) & 0xfc00) !== 0xdc00) return true;
    i += 1;
  }
  return false;
}
