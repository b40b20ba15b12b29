/**
 * The vue-i18n format read back: `{lang: messages}`, the messages flat with dotted keys (what the
 * export writes) or nested (what apps often keep), each in vue-i18n's syntax read into ICU
 * (readVueMessage: `{x}`, literal interpolations, pipe forms → one plural). Linked messages (`@:key`)
 * have no ICU form: they are kept as literal text and listed under warnings.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { readVueMessage } from '../../messages/vue-i18n/read-vue-i18n.js';
import { addText, describeJson, emptyDocument, isObject, keyOf, refuse, startFile, warn, type ImportDocument } from '../import-document.js';
import { MAX_IMPORT_NESTING, MAX_IMPORT_TEXT_LENGTH } from '../import-limits.js';
import { tooDeep } from '../nesting.js';
import { unreadLength } from '../read-nested.js';
import { turnTaker, type TakeTurn } from '../turns.js';

const LINK = /@(?:\.[A-Za-z]+)?:/;

/** Reads one object level (at `depth` in the body, which is 1) into `document`; 400 past MAX_IMPORT_NESTING. */
async function readLevel(
  document: ImportDocument,
  language: string,
  value: Record<string, unknown>,
  prefix: readonly string[],
  baseLanguage: string,
  depth: number,
  turn: TakeTurn,
): Promise<void> {
  if (depth > MAX_IMPORT_NESTING) throw tooDeep('the body');
  for (const [name, child] of Object.entries(value)) {
    const pause = turn();
    if (pause) await pause;
    const path = [...prefix, ...name.split('.')];
    const key = path.join('.');
    if (path.some((part) => part === '')) {
      refuse(document, key, language, 'an empty name between dots');
      continue;
    }
    if (isObject(child)) {
      if (language === baseLanguage) document.groups.set(path.join('\u0000'), path);
      await readLevel(document, language, child, path, baseLanguage, depth + 1, turn);
      continue;
    }
    if (typeof child !== 'string') {
      refuse(document, key, language, `is ${describeJson(child)}, not a message or an object`);
      continue;
    }
    if (child === '') {
      if (language !== baseLanguage) warn(document, key, language, 'empty: not translated, skipped');
      else refuse(document, key, language, "the base language's text is empty; a base term is 1–10,000 characters");
      continue;
    }
    if (child.length > MAX_IMPORT_TEXT_LENGTH) {
      refuse(document, key, language, unreadLength(child));
      continue;
    }
    let text: string;
    try {
      text = readVueMessage(child, language);
    } catch (error) {
      refuse(document, key, language, (error as Error).message);
      continue;
    }
    if (LINK.test(child)) warn(document, key, language, 'a linked message (@:…) has no ICU form: kept as literal text');
    addText(document, language, path.length > 1 ? keyOf(path.slice(0, -1)) : null, path.at(-1)!, text);
  }
}

/** Reads the vue-i18n document of every language given, letting other requests run between languages. */
export async function readVueI18nImport(body: unknown, baseLanguage: string): Promise<ImportDocument> {
  const document = emptyDocument();
  if (!isObject(body)) {
    refuse(document, '', '', `the body must be an object keyed by language, not ${describeJson(body)}`);
    return document;
  }
  const turn = turnTaker();
  for (const [language, value] of Object.entries(body)) {
    if (!isObject(value)) refuse(document, '', language, `the messages of a language must be an object, not ${describeJson(value)}`);
    else {
      startFile(document, language, language);
      await readLevel(document, language, value, [], baseLanguage, 2, turn);
    }
    // Other requests run between languages too, however quickly each was read.
    await yieldToEventLoop();
  }
  return document;
}
