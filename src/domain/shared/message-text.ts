/**
 * The one rule for every stored base term and translation (CONTRACT, "Messages"): it is an ICU
 * message. Every write path calls this; plain texts pass on one regular-expression test.
 */
import { validationError } from '../../errors.js';
import { parseMessage } from '../../messages/parse-message.js';

/** Refuses `text` with 400 ERR_VALIDATION naming `field`, where (offset, character) and why, unless it is a message. */
export function requireMessage(text: string, field: string): void {
  const result = parseMessage(text);
  if (result.ok) return;
  const { offset, column, reason } = result.error;
  throw validationError(`not an ICU message at offset ${offset} (character ${column}): ${reason}`, field);
}
