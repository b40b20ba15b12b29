/**
 * The nested objects of the json and i18next formats (group → … → entry → text) read into an import
 * document: objects are groups (an empty one too), strings are texts. What a language's object holds
 * besides is refused item by item, so one bad value never hides the others.
 */
import { addText, describeJson, isObject, keyOf, pathKey, refuse, warn, type ImportDocument, type ImportKey } from './import-document.js';

/** Turns one file text into an ICU message, or throws why it cannot. */
export type TextReader = (text: string) => string;

/** A language's texts after a format has regrouped them (i18next: plural suffix keys → one message). */
export type Level = ReadonlyArray<readonly [name: string, value: unknown]>;

export interface NestedOptions {
  /** the texts of one object level as the format reads them; by default the object's own */
  readonly level?: (entries: Level, language: string, parent: ImportKey | null) => Level;
  /** the language's base language: an empty text elsewhere is "not translated" */
  readonly baseLanguage: string;
}

const childKey = (parent: ImportKey | null, name: string) => (parent ? `${parent.key}.${name}` : name);

/** Walks `value` (one language's object, under `parent`; null at the top) into `document`. */
export function readNested(
  document: ImportDocument,
  language: string,
  value: unknown,
  read: TextReader,
  options: NestedOptions,
  parent: ImportKey | null = null,
): void {
  if (!isObject(value)) {
    refuse(document, parent?.key ?? '', language, `must be an object of groups and texts, not ${describeJson(value)}`);
    return;
  }
  const entries: Level = Object.entries(value);
  for (const [name, child] of options.level ? options.level(entries, language, parent) : entries) {
    if (typeof child === 'string') {
      if (child === '') {
        if (language !== options.baseLanguage) warn(document, childKey(parent, name), language, 'empty: not translated, skipped');
        else refuse(document, childKey(parent, name), language, 'the base language\'s text is empty; a base term is 1–10,000 characters');
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
      readNested(document, language, child, read, options, group);
    } else {
      refuse(document, childKey(parent, name), language, `is ${describeJson(child)}, not text or an object`);
    }
  }
}
