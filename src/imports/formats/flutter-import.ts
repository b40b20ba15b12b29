/**
 * The flutter format read back: a .tar.gz of ARB files at its top (`app_<locale>.arb`, `intl_…`, any
 * `<name>_<locale>.arb`; `@@locale` wins over the file name, as in gen-l10n). Each message in
 * gen-l10n's default syntax is read into ICU (readArbMessage); the base language's file is the
 * template: its `@key` descriptions become contextInfo, and the rest of each `@key` (placeholder types,
 * formats, examples, optionalParameters) is kept for the export. Paths stay bare ARB keys here: where
 * a key lands on the project's tree is decided with the project (place-arb-keys.ts). Nothing is skipped
 * silently: a member outside that layout (README.md, a hidden file, an .arb in a sub-folder) is warned
 * about by name and not read; one that cannot be read (not JSON, no locale, a second file for a locale)
 * is refused by name, so all-or-nothing lists it and skipInvalid reads the others.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { isKnownLocale } from '../../locales/locale-catalog.js';
import { readArbMessage } from '../../messages/flutter/read-flutter.js';
import { fallbackLanguages } from '../../exports/flutter/arb-file.js';
import { addText, describeJson, emptyDocument, isObject, refuse, startFile, warn, type ImportDocument } from '../import-document.js';
import { MAX_IMPORT_NESTING, MAX_IMPORT_TEXT_LENGTH } from '../import-limits.js';
import { deeperThan, tooDeep } from '../nesting.js';
import type { ArchiveMember } from '../read-archive.js';
import { unreadLength } from '../read-nested.js';
import { turnTaker } from '../turns.js';

const ARB_FILE = /^([^/]+)\.arb$/;

/** The locale tag of an ARB file: its `@@locale`, else the longest known locale after an `_` of its name (`app_pt_BR` → pt-BR). */
function languageOf(name: string, arb: Record<string, unknown>): string | undefined {
  const declared = arb['@@locale'];
  if (typeof declared === 'string' && declared !== '') return declared.replaceAll('_', '-');
  const parts = name.split('_');
  for (let start = 1; start < parts.length; start += 1) {
    const tag = parts.slice(start).join('-');
    if (isKnownLocale(tag)) return tag;
  }
  return undefined;
}

/** Each key's placeholders declared with a format (`@key.placeholders.x.format`): `{x}` in a plural on x is then its `#`. */
function formattedPlaceholders(template: Record<string, unknown> | undefined): Map<string, Set<string>> {
  const formatted = new Map<string, Set<string>>();
  for (const [key, value] of Object.entries(template ?? {})) {
    if (!key.startsWith('@') || key.startsWith('@@') || !isObject(value) || !isObject(value['placeholders'])) continue;
    for (const [name, placeholder] of Object.entries(value['placeholders'])) {
      if (isObject(placeholder) && typeof placeholder['format'] === 'string') formatted.set(key.slice(1), (formatted.get(key.slice(1)) ?? new Set()).add(name));
    }
  }
  return formatted;
}

interface ArbFile {
  readonly name: string;
  readonly language: string;
  readonly arb: Record<string, unknown>;
}

/** Why a member is outside the layout (not read, a warning), or undefined for `<name>.arb` at the archive's top. */
function outsideLayout(name: string): string | undefined {
  const parts = name.split('/');
  if (parts.some((part) => part.startsWith('.'))) return 'not read: a hidden file';
  if (!name.endsWith('.arb')) return 'not read: not an .arb file (the flutter layout is <name>_<locale>.arb)';
  if (parts.length > 1) return "not read: in a sub-folder (the flutter layout is <name>_<locale>.arb at the archive's top)";
  return undefined;
}

/**
 * One member read: an ARB file with its locale, or undefined when it is not one (a member outside the
 * layout is warned about, one that cannot be read is refused, naming it); 400 for one nested too deep.
 */
function readArbFile(document: ImportDocument, member: ArchiveMember): ArbFile | undefined {
  const outside = outsideLayout(member.name);
  if (outside) {
    warn(document, member.name, '', outside);
    return undefined;
  }
  let arb: unknown;
  try {
    arb = JSON.parse(member.text);
  } catch (error) {
    refuse(document, member.name, '', `not JSON, not read: ${(error as Error).message}`);
    return undefined;
  }
  if (!isObject(arb)) {
    refuse(document, member.name, '', `must hold an object, not ${describeJson(arb)}; not read`);
    return undefined;
  }
  // The `@key` metadata is kept as JSON.stringify gives it, which recurses: its nesting is bounded first.
  for (const value of Object.values(arb)) {
    if (typeof value === 'object' && value !== null && deeperThan(value, MAX_IMPORT_NESTING - 1)) throw tooDeep(`the archive member "${member.name}"`);
  }
  const language = languageOf(ARB_FILE.exec(member.name)![1]!, arb);
  if (!language) {
    refuse(document, member.name, '', 'names no locale, not read: give "@@locale" or end its name in _<locale>');
    return undefined;
  }
  return { name: member.name, language, arb };
}

/**
 * Reads the archive's ARB files, letting other requests run between files. Every member is read or
 * named with why (CONTRACT "Import": nothing is skipped silently); 400 only for one nested too deep.
 */
export async function readFlutterImport(members: readonly ArchiveMember[], baseLanguage: string, escaping: boolean): Promise<ImportDocument> {
  const document = emptyDocument(true);
  const files: ArbFile[] = [];
  const byLanguage = new Map<string, string>();
  for (const member of members) {
    const file = readArbFile(document, member);
    // A member is up to 16 MiB of JSON (ARCHIVE_LIMITS): parsing one can take a while.
    await yieldToEventLoop();
    if (!file) continue;
    const first = byLanguage.get(file.language);
    if (first !== undefined) {
      refuse(document, file.name, '', `a second file for the locale ${file.language} ("${first}" is the first), not read`);
      continue;
    }
    byLanguage.set(file.language, file.name);
    files.push(file);
  }
  const languages = files.map((file) => file.language);
  for (const bare of fallbackLanguages(languages.filter((language) => language.includes('-'))).keys()) document.fallbackLanguages.add(bare);
  const template = files.find((file) => file.language === baseLanguage)?.arb;
  const formatted = formattedPlaceholders(template);

  const turn = turnTaker();
  for (const { name, language, arb } of files) {
    startFile(document, name, language);
    for (const [key, value] of Object.entries(arb)) {
      if (key.startsWith('@')) continue;
      const pause = turn();
      if (pause) await pause;
      if (typeof value !== 'string') {
        refuse(document, key, language, `is ${describeJson(value)}, not a message`);
        continue;
      }
      if (value === '') {
        if (language !== baseLanguage) warn(document, key, language, 'empty: not translated, skipped');
        else refuse(document, key, language, "the base language's text is empty; a base term is 1–10,000 characters");
        continue;
      }
      if (value.length > MAX_IMPORT_TEXT_LENGTH) {
        refuse(document, key, language, unreadLength(value));
        continue;
      }
      try {
        addText(document, language, null, key, readArbMessage(value, formatted.get(key), escaping, language));
      } catch (error) {
        refuse(document, key, language, (error as Error).message);
      }
    }
  }
  for (const [name, value] of Object.entries(template ?? {})) {
    if (!name.startsWith('@') || name.startsWith('@@') || !isObject(value)) continue;
    const key = name.slice(1);
    const { description, ...rest } = value;
    document.contextInfo.set(key, typeof description === 'string' ? description : null);
    document.arbMetadata.set(key, Object.keys(rest).length > 0 ? JSON.stringify(rest) : null);
  }
  return document;
}
