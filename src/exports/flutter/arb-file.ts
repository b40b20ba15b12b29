/** ARB files as gen-l10n reads them: names, locales, the fallback files it insists on, and their content. */
import { quote } from '../output.js';
import type { FlutterPlaceholder } from '../../messages/flutter/print-flutter.js';
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
 * An ARB file is written in three pieces: arbHead, one arbMessage per message in order, arbEnd. The
 * file holds `@@locale` (always written, since gen-l10n reads file-name locales only for ISO 639-1
 * codes) and the messages. Only the template (base language) file carries `@key` metadata: gen-l10n
 * reads descriptions and placeholder types from the template alone. Every template message gets its
 * `@key`, even an empty one, so `required-resource-attributes` passes. Keys are distinct by then
 * (findKeyCollisions refuses the export otherwise: a repeated key would shadow the first in JSON).
 *
 * Written as text, byte for byte what JSON.stringify(document, null, pretty ? 2 : 0) would give:
 * building a 100,000-key object first cost as much again as the whole serialisation.
 */
/** An ARB file's beginning: the opening brace and `@@locale`. */
export function arbHead(tag: string, pretty: boolean): string {
  return `{${pretty ? '\n  ' : ''}"@@locale"${pretty ? ': ' : ':'}${quote(arbLocale(tag))}`;
}

/** One message of an ARB file (with its `@key` in a template), after the members before it. */
export function arbMessage({ key, text, description, placeholders, kept }: ArbMessage, isTemplate: boolean, pretty: boolean): string {
  const separator = pretty ? ',\n  ' : ',';
  const colon = pretty ? ': ' : ':';
  const member = `${separator}${quote(key)}${colon}${quote(text)}`;
  if (!isTemplate) return member;
  const metadata = templateMetadata(description, placeholders, kept ?? null);
  const value = pretty ? JSON.stringify(metadata, null, 2).replace(/\n/g, '\n  ') : JSON.stringify(metadata);
  return `${member}${separator}${quote(`@${key}`)}${colon}${value}`;
}

export const arbEnd = (pretty: boolean): string => (pretty ? '\n}' : '}');

const NUMBER_TYPES: ReadonlySet<string> = new Set(['num', 'int', 'double']);
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A template message's `@key`: the entry's description (contextInfo), then the metadata an import
 * kept from the app's own file (`kept`, JSON, in its order) with the placeholders merged in: each
 * kept placeholder as it was (its `int`, `example`, `optionalParameters`…), a number type where a
 * plural now needs one, a format where a `#` now needs one; placeholders the messages use beyond
 * those, as printed. Without kept metadata: description and printed placeholders, as always.
 */
export function templateMetadata(description: string | null, placeholders: readonly FlutterPlaceholder[], kept: string | null): Json {
  const metadata: Json = {};
  if (description !== null) metadata['description'] = description;
  const keptMetadata = parseKept(kept);
  const printed = new Map(placeholders.map((placeholder) => [placeholder.name, placeholder]));
  const merged = () => {
    const result: Json = {};
    const keptPlaceholders = isObject(keptMetadata['placeholders']) ? keptMetadata['placeholders'] : {};
    for (const [name, value] of Object.entries(keptPlaceholders)) {
      const declared: Json = isObject(value) ? { ...value } : {};
      const needed = printed.get(name);
      // A type the plural cannot take is corrected; none at all is left so (gen-l10n infers num for a plural's placeholder).
      if (needed?.type === 'num' && declared['type'] !== undefined && !NUMBER_TYPES.has(String(declared['type']))) declared['type'] = 'num';
      if (needed?.format && declared['format'] === undefined) declared['format'] = needed.format;
      result[name] = declared;
    }
    for (const [name, { type, format }] of printed) {
      if (!(name in result)) result[name] = format ? { type, format } : { type };
    }
    return result;
  };
  for (const [key, value] of Object.entries(keptMetadata)) {
    if (key === 'description') continue;
    metadata[key] = key === 'placeholders' ? merged() : value;
  }
  if (!('placeholders' in metadata) && printed.size > 0) metadata['placeholders'] = merged();
  return metadata;
}

function parseKept(kept: string | null): Json {
  if (kept === null) return {};
  try {
    const value: unknown = JSON.parse(kept);
    return isObject(value) ? value : {};
  } catch {
    return {}; // written by the import from a parsed object: unreadable only if the row was edited by hand
  }
}
