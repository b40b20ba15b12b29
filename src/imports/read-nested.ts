/**
 * The nested objects of the json and i18next formats (group → … → entry → text) read into an import
 * document: objects are groups (an empty one too), strings are texts. What a language's object holds
 * besides is refused item by item, so one bad value never hides the others.
 */
import { addText, describeJson, isObject, keyOf, pathKey, refuse, warn, type ImportDocument, type ImportKey } from './import-document.js';
import { MAX_IMPORT_NESTING, MAX_IMPORT_TEXT_LENGTH } from './import-limits.js';
import { tooDeep } from './nesting.js';
import type { TakeTurn } from './turns.js';

/** Turns one file text into an ICU message, or throws why it cannot. */
export type TextReader = (text: string) => string;

/** A language's texts after a format has regrouped them (i18next: plural suffix keys → one message). */
export type Level = ReadonlyArray<readonly [name: string, value: unknown]>;

/**
 * A group's content as a format regrouped it, walked like an object: a list of entries, so a name may
 * come twice (i18next's `a: {b}` and `"a.b"` side by side) and addText refuses the second by name.
 */
export class RegroupedLevel {
  constructor(readonly entries: Level) {}
}

export interface NestedOptions {
  /** the texts of one object level as the format reads them; by default the object's own */
  readonly level?: (entries: Level, language: string, parent: ImportKey | null) => Level;
  /** the language's base language: an empty text elsewhere is "not translated" */
  readonly baseLanguage: string;
  /** the level of the language's object in its JSON document (1: the document itself), for MAX_IMPORT_NESTING */
  readonly depth: number;
  /** what a refusal for nesting calls the document: "the body", or the archive member */
  readonly document: string;
  /** lets other requests run between texts (turns.ts): a language can hold 100,000 of them */
  readonly turn: TakeTurn;
}

const childKey = (parent: ImportKey | null, name: string) => (parent ? `${parent.key}.${name}` : name);

/** The refusal of a text too long to be read (MAX_IMPORT_TEXT_LENGTH). */
export const unreadLength = (text: string) =>
  `is ${text.length.toLocaleString('en')} UTF-16 units long in the file; a text longer than ${MAX_IMPORT_TEXT_LENGTH.toLocaleString('en')} is not read (a text is at most 10,000 characters)`;

/**
 * Walks `value` (one language's object, under `parent`; null at the top) into `document`; 400 when it
 * nests deeper than MAX_IMPORT_NESTING (it recurses, one call per level).
 */
export async function readNested(
  document: ImportDocument,
  language: string,
  value: unknown,
  read: TextReader,
  options: NestedOptions,
  parent: ImportKey | null = null,
  depth = options.depth,
): Promise<void> {
  if (depth > MAX_IMPORT_NESTING) throw tooDeep(options.document);
  if (!isObject(value)) {
    refuse(document, parent?.key ?? '', language, `must be an object of groups and texts, not ${describeJson(value)}`);
    return;
  }
  const entries: Level = value instanceof RegroupedLevel ? value.entries : Object.entries(value);
  for (const [name, child] of options.level ? options.level(entries, language, parent) : entries) {
    const pause = options.turn();
    if (pause) await pause;
    if (typeof child === 'string') {
      if (child === '') {
        if (language !== options.baseLanguage) warn(document, childKey(parent, name), language, 'empty: not translated, skipped');
        else refuse(document, childKey(parent, name), language, 'the base language\'s text is empty; a base term is 1–10,000 characters');
        continue;
      }
      if (child.length > MAX_IMPORT_TEXT_LENGTH) {
        refuse(document, childKey(parent, name), language, unreadLength(child));
        continue;
      }
      let text: string;
      try {
        text = read(child);
      } catch (error) {
        refuse(document, childKey(parent, name), language, (error as Error).message);
        continue;
      }
      addText(document, language, parent, name, text);
    } else if (isObject(child)) {
      const group = keyOf(parent ? [...parent.path, name] : [name]);
      if (language === options.baseLanguage) document.groups.set(pathKey(group.path), group.path);
      await readNested(document, language, child, read, options, group, depth + 1);
    } else {
      refuse(document, childKey(parent, name), language, `is ${describeJson(child)}, not text or an object`);
    }
  }
}
