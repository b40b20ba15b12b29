/** STUB: being written. Messages in gen-l10n's ARB syntax. */
import type { Message } from '../message.js';

export interface FlutterPlaceholder {
  readonly name: string;
  readonly type: 'String' | 'num';
  readonly format?: string;
}

export type FlutterMessage =
  | { readonly ok: true; readonly text: string; readonly native: boolean; readonly placeholders: readonly FlutterPlaceholder[] }
  /** gen-l10n's syntax cannot carry the message at all (a literal brace without escaping): the export answers 409 */
  | { readonly ok: false; readonly native: false; readonly reason: string };

export function printFlutter(message: Message, language: string, options: { escaping: boolean }): FlutterMessage {
  void message; void language; void options;
  throw new Error('not implemented');
}
