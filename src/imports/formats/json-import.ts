/** The json format read back: `{lang: {group: {entry: message}}}`, each text already an ICU message. */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { messageLengthProblem, parseMessage } from '../../messages/parse-message.js';
import { describeJson, emptyDocument, isObject, refuse, startFile, type ImportDocument } from '../import-document.js';
import { readNested } from '../read-nested.js';
import { turnTaker } from '../turns.js';

/** The text itself when it is an ICU message; throws where and why it is not (a text too long to store, unparsed). */
export function icuText(text: string): string {
  const tooLong = messageLengthProblem(text);
  if (tooLong) throw new Error(tooLong);
  const result = parseMessage(text);
  if (result.ok) return text;
  const { offset, column, reason } = result.error;
  throw new Error(`not an ICU message at offset ${offset} (character ${column}): ${reason}`);
}

/** Reads the json document of every language given, letting other requests run between languages. */
export async function readJsonImport(body: unknown, baseLanguage: string): Promise<ImportDocument> {
  const document = emptyDocument();
  if (!isObject(body)) {
    refuse(document, '', '', `the body must be an object keyed by language, not ${describeJson(body)}`);
    return document;
  }
  const turn = turnTaker();
  for (const [language, value] of Object.entries(body)) {
    // A language that is no object is refused, not read: the report lists it under refused, not files.
    if (!isObject(value)) {
      refuse(document, '', language, `the messages of a language must be an object, not ${describeJson(value)}`);
      continue;
    }
    startFile(document, language, language);
    await readNested(document, language, value, icuText, { baseLanguage, depth: 2, document: 'the body', turn });
    // Other requests run between languages too, however quickly each was read.
    await yieldToEventLoop();
  }
  return document;
}
