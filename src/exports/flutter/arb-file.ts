/** ARB files as gen-l10n reads them: names, locales, the fallback files it insists on, and their content. */
import { quote } from '../output.js';
import type { ArbMessage } from './types.js';

/** Tags come from our locale catalog; anything else reaching a file name is a caller bug. */
const TAG = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

/** gen-l10n's spelling of a BCP 47 tag: underscores for hyphens (`pt-BR` → `pt_BR`, `es-419` → `es_419`). */
export function arbLocale(tag: string): string {
  if (!TAG.test(tag)) throw new Error(`not a locale tag: ${JSON.stringify(tag)}`);
  return tag.replaceAll('-', '_');
}

/** The ARB file of a language (`pt-BR` → `app_pt_BR.arb`); its suffix always agrees with its `@@locale`. */
export function arbFileName(tag: string): string {
  return `app_${arbLocale(tag)}.arb`;
}

/**
 * The extra files gen-l10n needs: for every regional tag (`pt-BR`) whose bare language (`pt`) is not
 * among `tags`, that language → the regional tag whose texts its file repeats. gen-l10n aborts with
 * "Arb file for a fallback, pt, does not exist" otherwise, and no option turns the check off.
 * When several regions of one language qualify (es-419, es-MX), the first in code-unit order wins
 * (digits sort before letters, so es-419 over es-MX, en-001 over en-GB): the choice depends only on
 * the set of tags, never on the order they are listed in. The map iterates in that same order.
 */
export function fallbackLanguages(tags: readonly string[]): Map<string, string> {
  const present = new Set(tags);
  const fallbacks = new Map<string, string>();
  for (const tag of [...present].sort()) {
    const language = tag.split('-')[0] ?? tag;
    if (language !== tag && !present.has(language) && !fallbacks.has(language)) fallbacks.set(language, tag);
  }
  return fallbacks;
}

/**
 * The text of one ARB file: `@@locale` (always written, since gen-l10n reads file-name locales only
 * for ISO 639-1 codes) and the messages in the order given. Only the template (base language) file
 * carries `@key` metadata: gen-l10n reads descriptions and placeholder types from the template alone.
 * Every template message gets its `@key`, even an empty one, so `required-resource-attributes` passes.
 *
 * Written as text, byte for byte what JSON.stringify(document, null, pretty ? 2 : 0) would give:
 * building a 100,000-key object first cost as much again as the whole serialisation.
 */
export function arbText(tag: string, messages: Iterable<ArbMessage>, isTemplate: boolean, pretty: boolean): string {
  const separator = pretty ? ',\n  ' : ',';
  const colon = pretty ? ': ' : ':';
  const seen = new Set<string>();
  // String concatenation, not an array join: V8 builds a rope and flattens it once.
  let text = `{${pretty ? '\n  ' : ''}"@@locale"${colon}${quote(arbLocale(tag))}`;
  for (const { key, text: message, description, placeholders } of messages) {
    // Keys come from flutterKey (which asserts gen-l10n takes them) and findKeyCollisions; a repeated
    // one here would silently shadow the first in JSON, so it is a bug to stop on.
    if (seen.has(key)) throw new Error(`the key ${key} is given twice`);
    seen.add(key);
    text += `${separator}${quote(key)}${colon}${quote(message)}`;
    if (!isTemplate) continue;
    const metadata: Record<string, unknown> = {};
    if (description !== null) metadata['description'] = description;
    if (placeholders.length > 0) {
      metadata['placeholders'] = Object.fromEntries(placeholders.map(({ name, type, format }) => [name, format ? { type, format } : { type }]));
    }
    const value = pretty ? JSON.stringify(metadata, null, 2).replace(/\n/g, '\n  ') : JSON.stringify(metadata);
    text += `${separator}${quote(`@${key}`)}${colon}${value}`;
  }
  return `${text}${pretty ? '\n}' : '}'}`;
}
