/** STUB: being written. Messages in i18next's JSON v4 syntax. */
import type { Message } from '../message.js';

/** One stored message as i18next keys: `forms` are [suffix, text] pairs ('' for the plain key, `_one`…). */
export interface I18nextMessage {
  readonly forms: ReadonlyArray<readonly [suffix: string, text: string]>;
  /** false when i18next cannot say the message and its `other` branch was written instead */
  readonly native: boolean;
}

export function printI18next(message: Message, language: string): I18nextMessage {
  void message; void language;
  throw new Error('not implemented');
}
