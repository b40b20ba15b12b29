/**
 * The vue-i18n format read back: `{lang: messages}`, the messages flat with dotted keys (what the
 * export writes) or nested (what apps often keep), each in vue-i18n's syntax read into ICU
 * (readVueMessage: `{x}`, literal interpolations, pipe forms → one plural). Linked messages (`@:key`)
 * are inlined once every language is read (vue-links.ts), each with a warning.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { MAX_MESSAGE_LENGTH } from '../../messages/parse-message.js';
import { readVueMessage } from '../../messages/vue-i18n/read-vue-i18n.js';
import { addText, describeJson, emptyDocument, isObject, keyOf, pathKey, refuse, startFile, warn, type ImportDocument } from '../import-document.js';
import { MAX_IMPORT_NESTING, MAX_IMPORT_TEXT_LENGTH } from '../import-limits.js';
import { tooDeep } from '../nesting.js';
import { unreadLength } from '../read-nested.js';
import { turnTaker, type TakeTurn } from '../turns.js';
import { inlineLinks, type LinkedText } from './vue-links.js';

/** Reads one object level (at `depth` in the body, which is 1) into `document`, collecting the texts with links; 400 past MAX_IMPORT_NESTING. */
async function readLevel(
  document: ImportDocument,
  linked: LinkedText[],
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
      await readLevel(document, linked, language, child, path, baseLanguage, depth + 1, turn);
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
    let links = 0;
    try {
      text = readVueMessage(child, language, () => {
        links += 1;
        return undefined;
      });
    } catch (error) {
      refuse(document, key, language, (error as Error).message);
      continue;
    }
    // A second text for the path is refused by addText: its links are not read. Each link adds at least a
    // character, so a text of more links than a message has characters is refused for its length as it is.
    if (links > 0 && links <= MAX_MESSAGE_LENGTH && !document.texts.get(language)?.has(pathKey(path))) linked.push({ language, path, source: child });
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
  const linked: LinkedText[] = [];
  for (const [language, value] of Object.entries(body)) {
    if (!isObject(value)) refuse(document, '', language, `the messages of a language must be an object, not ${describeJson(value)}`);
    else {
      startFile(document, language, language);
      await readLevel(document, linked, language, value, [], baseLanguage, 2, turn);
    }
    // Other requests run between languages too, however quickly each was read.
    await yieldToEventLoop();
  }
  await inlineLinks(document, linked, baseLanguage, turn);
  return document;
}
