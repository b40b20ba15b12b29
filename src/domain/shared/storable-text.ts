/**
 * Text no store can keep faithfully: NUL (PostgreSQL rejects it in text columns) and lone UTF-16
 * surrogates (they would be stored as U+FFFD, silently changing the text). The request guard and
 * the import (whose archives no guard sees) both refuse it.
 */
export const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_MESSAGE = 'text must not contain NUL characters or unpaired UTF-16 surrogates';
