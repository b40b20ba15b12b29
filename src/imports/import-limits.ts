/**
 * What an import body may hold beyond its size (IMPORT_MAX_BYTES), in one place (the README's
 * "Security" section lists them). Past a limit the import is refused as a whole, naming it: these
 * bound the memory and the event-loop time one request can take, far above what real apps' files need.
 */

/**
 * Levels of objects and arrays a JSON document (the body, or one archive member) may nest. Keys are
 * at most 11 names deep (10 groups and the entry), under the language's object and the body: 13
 * levels; ARB metadata nests 4 (`@key` → placeholders → name → optionalParameters). 32 leaves room,
 * and keeps the readers, which recurse, far from the call stack's end.
 */
export const MAX_IMPORT_NESTING = 32;

/**
 * UTF-16 units a text may have in a file before it is read into an ICU message: a stored message is at
 * most 10,000 characters, but a format may spell it longer (i18next writes `#` as the 17 characters
 * `{{count, number}}`). Longer texts are refused unread, so no reader ever parses megabytes.
 */
export const MAX_IMPORT_TEXT_LENGTH = 200_000;

/** The limits an import's .tar.gz is read within (read-archive.ts); each refusal is 413 ERR_PAYLOAD_TOO_LARGE naming it. */
export const ARCHIVE_LIMITS = {
  /** members (files and folders): a real app has a file per language and namespace */
  members: 10_000,
  /** unpacked bytes of one member: each is parsed as JSON in one go, which holds the event loop */
  memberBytes: 16 * 1024 * 1024,
  /** unpacked bytes of all members: they are held in memory until read */
  unpackedBytes: 256 * 1024 * 1024,
  /** unpacked bytes per byte of the body, past `ratioFreeBytes`: text files compress 3–20×, a zip bomb 1,000× */
  ratio: 100,
  /** unpacked bytes any body may hold whatever its ratio */
  ratioFreeBytes: 8 * 1024 * 1024,
} as const;

export type ArchiveLimits = { readonly [K in keyof typeof ARCHIVE_LIMITS]: number };
