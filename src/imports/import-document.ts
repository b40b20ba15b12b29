/**
 * What an import's body holds, whatever its format: texts (already ICU messages) by language and
 * path, the groups the files name, what a format carries beside the texts (ARB descriptions and
 * metadata), and what the reading itself refused or warns about. The domain plans the writes from it.
 */

/** A key of the files: its path of names, and what the report calls it (the dotted path, or the ARB key). */
export interface ImportKey {
  readonly path: readonly string[];
  readonly key: string;
  /** pathKey(path), kept so that every language's map uses this one string */
  readonly pathKey?: string;
}

export interface ImportProblem {
  readonly key: string;
  readonly language: string;
  readonly code: string;
  readonly message: string;
}

/** One file the reading took texts from: an archive member, or one language's document of a JSON body. */
export interface ImportFile {
  /** the archive member's path, or the language's key in a JSON body */
  readonly name: string;
  readonly language: string;
  /** the texts read from it (a plural family counts once) */
  texts: number;
}

export interface ImportDocument {
  /**
   * path key → the key, once for all languages: a large import holds a million texts, and one path
   * array and one key string per text and language was most of its memory.
   */
  readonly keys: Map<string, ImportKey>;
  /** language → path key → text (an ICU message, converted from the format's syntax), in the files' order */
  readonly texts: Map<string, Map<string, string>>;
  /** the groups the files name, empty ones included: path key → path */
  readonly groups: Map<string, readonly string[]>;
  /** path key → ARB description (contextInfo); only formats that carry one */
  readonly contextInfo: Map<string, string | null>;
  /** path key → the ARB `@key` object without its description, as JSON (null when empty) */
  readonly arbMetadata: Map<string, string | null>;
  /** items the reading refused (not text, not a message in the format's syntax) */
  readonly refused: ImportProblem[];
  /** items kept but changed or skipped (links, nesting, empty texts) */
  readonly warnings: ImportProblem[];
  /** languages whose files are only gen-l10n's fallback copies: skipped when the project lacks them */
  readonly fallbackLanguages: Set<string>;
  /** Flutter: paths are still bare ARB keys, to be placed on the project's tree */
  readonly arbKeys: boolean;
  /**
   * Every file read, in the body's order (CONTRACT "Import": nothing is skipped silently). A file the
   * reading does not take is not here but under `refused` or `warnings`, its name as the key.
   */
  readonly files: ImportFile[];
}

/** The map key of a path: names never hold NUL. */
export const pathKey = (path: readonly string[]) => path.join('\u0000');

export function emptyDocument(arbKeys = false): ImportDocument {
  return {
    keys: new Map(),
    texts: new Map(),
    groups: new Map(),
    contextInfo: new Map(),
    arbMetadata: new Map(),
    refused: [],
    warnings: [],
    fallbackLanguages: new Set(),
    arbKeys,
    files: [],
  };
}

/** Starts reading one file: the texts addText() adds until the next file are counted as its. */
export function startFile(document: ImportDocument, name: string, language: string): void {
  document.files.push({ name, language, texts: 0 });
}

/**
 * Adds one text at `parent` + `name` (the parent's path key, '' at the top), refusing a second text for
 * the same path and language (`a.b` given nested and dotted). The path is made only for a new key.
 */
export function addText(document: ImportDocument, language: string, parent: ImportKey | null, name: string, text: string): void {
  let texts = document.texts.get(language);
  if (!texts) document.texts.set(language, (texts = new Map()));
  const lookup = parent ? `${pathKey(parent.path)}\u0000${name}` : name;
  let known = document.keys.get(lookup);
  if (!known) {
    known = parent ? { path: [...parent.path, name], key: `${parent.key}.${name}`, pathKey: lookup } : { path: [name], key: name, pathKey: lookup };
    document.keys.set(lookup, known);
  }
  if (texts.has(lookup)) {
    document.refused.push({ key: known.key, language, code: 'ERR_VALIDATION', message: 'the file gives this key twice' });
    return;
  }
  // The stored key string, not the one just made: every language's map then shares one string per key.
  texts.set(known.pathKey ?? lookup, text);
  const file = document.files.at(-1);
  if (file && file.language === language) file.texts += 1;
}

/** The key of a path (for a group level that holds texts): `{path, key}` with the dotted key. */
export const keyOf = (path: readonly string[]): ImportKey => ({ path, key: path.join('.') });

export function refuse(document: ImportDocument, key: string, language: string, message: string, code = 'ERR_VALIDATION'): void {
  document.refused.push({ key, language, code, message });
}

export function warn(document: ImportDocument, key: string, language: string, message: string): void {
  document.warnings.push({ key, language, code: 'WARNING', message });
}

/** A JSON object (not an array, not null). */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a JSON value is, for a message: "a number", "null", "an array". */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
