/**
 * The i18next format read back: a .tar.gz of `<lang>/<namespace>.json`. Only `translation.json` files:
 * the export's default layout, read like the json format (top-level objects are groups). Other
 * namespace names (or `namespaces=true`): the `?namespaces=true` layout, each file one top-level group.
 * Each text in i18next's syntax is read into ICU (readI18nextText: `{{x}}` → `{x}`), and the sibling
 * keys `key_one`, `key_other`… of one object into one plural message of the entry `key`. Nesting
 * (`$t(…)`) has no ICU form: kept as literal text and listed under warnings. Context keys
 * (`friend_male`) stay entries of their own, so `t('friend', {context})` finds them as before.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { validationError } from '../../errors.js';
import { pluralSuffixOf, readI18nextPlural, readI18nextText } from '../../messages/i18next/read-i18next.js';
import { emptyDocument, keyOf, startFile, warn, type ImportDocument, type ImportKey } from '../import-document.js';
import { MAX_IMPORT_TEXT_LENGTH } from '../import-limits.js';
import type { ArchiveMember } from '../read-archive.js';
import { readNested, type Level } from '../read-nested.js';
import { turnTaker } from '../turns.js';

const MEMBER = /^([^/]+)\/([^/]+)\.json$/;
const DEFAULT_NAMESPACE = 'translation';

/** A text short enough to be read (MAX_IMPORT_TEXT_LENGTH); a longer one is left as it is, for readNested to refuse unread. */
const readable = (value: unknown): value is string => typeof value === 'string' && value.length <= MAX_IMPORT_TEXT_LENGTH;

/** One object level with each entry's plural suffix keys folded into one ICU plural and every text read as ICU. */
function foldLevel(document: ImportDocument, entries: Level, language: string, parent: ImportKey | null): Level {
  const texts = new Map(entries.filter(([, value]) => readable(value)) as [string, string][]);
  const plurals = new Map<string, Map<string, string>>();
  for (const [name, text] of texts) {
    const suffix = pluralSuffixOf(name);
    if (!suffix) continue;
    const stem = name.slice(0, -(suffix.length + 1));
    if (stem === '' || texts.has(stem) || !texts.has(`${stem}_other`)) continue;
    plurals.set(stem, (plurals.get(stem) ?? new Map<string, string>()).set(suffix, text));
  }
  const level: [string, unknown][] = [];
  for (const [name, value] of entries) {
    if (!readable(value)) {
      level.push([name, value]);
      continue;
    }
    const suffix = pluralSuffixOf(name);
    const stem = suffix ? name.slice(0, -(suffix.length + 1)) : name;
    const forms = suffix ? plurals.get(stem) : undefined;
    if (value.includes('$t(')) warn(document, parent ? `${parent.key}.${forms ? stem : name}` : forms ? stem : name, language, 'nesting ($t(…)) has no ICU form: kept as literal text');
    if (!forms) level.push([name, value === '' ? '' : readI18nextText(value)]);
    else if (suffix === 'other') level.push([stem, readI18nextPlural(forms, language)]);
  }
  return level;
}

/** Reads the archive's namespace files, letting other requests run between files; 400 for a member outside the layout. */
export async function readI18nextImport(members: readonly ArchiveMember[], baseLanguage: string, namespaces: boolean | undefined): Promise<ImportDocument> {
  const files = members.map((member) => {
    const match = MEMBER.exec(member.name);
    if (!match) throw validationError(`the archive member "${member.name}" is outside the i18next layout <lang>/<namespace>.json`, '/body');
    return { language: match[1]!, namespace: match[2]!, member };
  });
  const asGroups = namespaces ?? files.some((file) => file.namespace !== DEFAULT_NAMESPACE);
  const document = emptyDocument();
  const turn = turnTaker();
  for (const { language, namespace, member } of files) {
    let value: unknown;
    try {
      value = JSON.parse(member.text);
    } catch (error) {
      throw validationError(`the archive member "${member.name}" is not JSON: ${(error as Error).message}`, '/body');
    }
    startFile(document, member.name, language);
    const group = asGroups ? keyOf([namespace]) : null;
    if (group && language === baseLanguage) document.groups.set(namespace, group.path);
    const where = `the archive member "${member.name}"`;
    await readNested(document, language, value, (text) => text, { baseLanguage, depth: 1, document: where, turn, level: (entries, lng, at) => foldLevel(document, entries, lng, at) }, group);
    // A member is up to 16 MiB of JSON (ARCHIVE_LIMITS): parsing and reading one can take a while.
    await yieldToEventLoop();
  }
  return document;
}
