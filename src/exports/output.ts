/** Writing to a response stream with backpressure, and noticing when the client has gone. */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Writes a chunk; waits while the stream's buffer is full; throws if the stream was closed. */
export async function push(out: Writable, chunk: string | Buffer): Promise<void> {
  if (out.destroyed) throw new Error('export output closed (client gone)');
  if (out.write(chunk)) return;
  // Whichever event comes first, the other's listeners must go: a large export waits here thousands
  // of times, and each leftover `once` would keep a listener on the stream.
  const settled = new AbortController();
  try {
    await Promise.race([once(out, 'drain', { signal: settled.signal }), once(out, 'close', { signal: settled.signal })]);
  } finally {
    settled.abort();
  }
  if (out.destroyed) throw new Error('export output closed (client gone)');
}

/** What JSON.stringify escapes in a string: quotes, backslashes, control characters, lone surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify of a string, without its cost for the common text that needs no escape. */
export function quote(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/**
 * Writes `{"<lang>": <value>, …}` one language at a time, byte for byte what JSON.stringify of
 * the whole object would give (compact or pretty), without holding every language's text at once.
 * `writeValue` writes the value of the language at that index as JSON text, indented (when pretty) as
 * nested one level deep.
 */
export async function writeLanguageObject(out: Writable, languages: readonly string[], pretty: boolean, writeValue: (index: number) => Promise<void>): Promise<void> {
  if (languages.length === 0) return push(out, '{}');
  for (const [index, language] of languages.entries()) {
    const open = index === 0 ? (pretty ? '{\n  ' : '{') : pretty ? ',\n  ' : ',';
    await push(out, `${open}${quote(language)}:${pretty ? ' ' : ''}`);
    await writeValue(index);
  }
  await push(out, pretty ? '\n}' : '}');
}
