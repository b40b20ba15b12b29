/** STUB: being written. Messages in vue-i18n's syntax. */
import type { Message } from '../message.js';

export interface VueI18nMessage {
  readonly text: string;
  /** false when vue-i18n cannot say the message and its `other` branch was written instead */
  readonly native: boolean;
}

export function printVueI18n(message: Message, language: string): VueI18nMessage {
  void message; void language;
  throw new Error('not implemented');
}
