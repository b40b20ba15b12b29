/**
 * The nested objects of the json and i18next formats (group → … → entry → text) read into an import
 * document: objects are groups (an empty one too), strings are texts. What a language's object holds
 * besides is refused item by item, so one bad value never hides the others.
 */
import { addText, describeJson, isObject, refuse, warn, type ImportDocument } from './import-document.js';

/** Turns one file text into an ICU message, or throws why it cannot. */
export type TextReader = (text: string, path: readonly string[]) => string;

/** A language's texts after a format has regrouped them (i18next: plural suffix keys → one message). */
export type Level = ReadonlyArray<readonly [name: string, value: unknown]>;

export interface NestedOptions {
  /** the texts of one object level as the format reads them; by default the object's own */
  readonly level?: (entries: Level, language: string, prefix: readonly string[]) => Level;
  /** the language's base language: an empty text elsewhere is "not translated" */
  readonly baseLanguage: string;
}

/** Walks `value` (one language's object, under `prefix`) into `document`. */
export function readNested(
  document: ImportDocument,
  language: string,
  value: unknown,
  read: TextReader,
  options: NestedOptions,
  prefix: readonly string[] = [],
): void {
  const where = prefix.length > 0 ? prefix.join('.') : '';
  if (!isObject(value)) {
    refuse(document, where, language, `must be an object of groups and texts, not ${describeJson(value)}`);
    return;
  }
  const entries: Level = Object.entries(value);
  for (const [name, child] of options.level ? options.level(entries, language, prefix) : entries) {
    const path = [...prefix, name];
    const key = path.join('.');
    if (typeof child === 'string') {
      if (child === '') {
        if (language !== options.baseLanguage) warn(document, key, language, 'empty: not translated, skipped');
        else refuse(document, key, language, 'the base language\'s text is empty; a base term is 1–10,000 characters');
        continue;
      }
      let text: string;
      try {
        text = read(child, path);
      } catch (error) {
        refuse(document, key, language, (error as Error).message);
        continue;
      }
      addText(document, language, { path, key, text });
    } else if (isObject(child)) {
      if (language === options.baseLanguage) document.groups.set(path.join('\u0000'), path);
      readNested(document, language, child, read, options, path);
    } else {
      refuse(document, key, language, `is ${describeJson(child)}, not text or an object`);
    }
  }
}
