/** The json format read back: `{lang: {group: {entry: message}}}`, each text already an ICU message. */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { parseMessage } from '../../messages/parse-message.js';
import { describeJson, emptyDocument, isObject, refuse, type ImportDocument } from '../import-document.js';
import { readNested } from '../read-nested.js';

/** The text itself when it is an ICU message; throws where and why it is not. */
export function icuText(text: string): string {
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
  for (const [language, value] of Object.entries(body)) {
    readNested(document, language, value, icuText, { baseLanguage });
    // A language of a large import takes ~250 ms to read: other requests run in between.
    await yieldToEventLoop();
  }
  return document;
}
