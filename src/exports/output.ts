/** Writing to a response stream with backpressure, and noticing when the client has gone. */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Writes a chunk; waits while the stream's buffer is full; throws if the stream was closed. */
export async function push(out: Writable, chunk: string | Buffer): Promise<void> {
  if (out.destroyed) throw new Error('export output closed (client gone)');
  if (out.write(chunk)) return;
  await Promise.race([once(out, 'drain'), once(out, 'close')]);
  if (out.destroyed) throw new Error('export output closed (client gone)');
}

/** JSON text of a value: compact, or indented by two spaces and nested `depth` levels deep. */
export function jsonText(value: unknown, pretty: boolean, depth = 0): string {
  if (!pretty) return JSON.stringify(value);
  const text = JSON.stringify(value, null, 2);
  return depth === 0 ? text : text.replace(/\n/g, `\n${'  '.repeat(depth)}`);
}

/**
 * Writes `{"<lang>": <value>, …}` one language at a time, byte for byte what JSON.stringify of
 * the whole object would give (compact or pretty), without holding every language at once.
 */
export async function writeLanguageObject(
  out: Writable,
  languages: string[],
  pretty: boolean,
  valueOf: (language: string) => Promise<unknown>,
): Promise<void> {
  if (languages.length === 0) return push(out, '{}');
  for (const [index, language] of languages.entries()) {
    const open = index === 0 ? (pretty ? '{\n  ' : '{') : pretty ? ',\n  ' : ',';
    const value = jsonText(await valueOf(language), pretty, 1);
    await push(out, `${open}${JSON.stringify(language)}:${pretty ? ' ' : ''}${value}`);
  }
  await push(out, pretty ? '\n}' : '}');
}
