/**
 * The i18next format read back: a .tar.gz of `<lang>/<namespace>.json`, the namespace in sub-folders
 * at any depth (`<lang>/components/dialog.json` is the namespace `components/dialog`). Only
 * `translation.json` files: the export's default layout, read like the json format (top-level objects
 * are groups). Other namespace names, sub-folders (or `namespaces=true`): the `?namespaces=true` layout,
 * each file one top-level group named like its namespace.
 * Each level of a file is read as i18next reads it (i18next-levels.ts: dotted keys split, plural
 * families folded, `{{x}}` → `{x}`). Context keys (`friend_male`) stay entries of their own, so
 * `t('friend', {context})` finds them as before.
 * Nothing is skipped silently: a member outside the layout (README.md, `en.json`, a hidden file) is a
 * warning naming it, and one that fits but is not a JSON object a refused item naming it.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { describeJson, emptyDocument, isObject, keyOf, refuse, startFile, warn, type ImportDocument } from '../import-document.js';
import type { ArchiveMember } from '../read-archive.js';
import { readNested } from '../read-nested.js';
import { turnTaker } from '../turns.js';
import { readI18nextLevel } from './i18next-levels.js';

/** `<lang>/<namespace>.json`, the namespace any number of folders deep. */
const MEMBER = /^([^/]+)\/(.+)\.json$/;
const DEFAULT_NAMESPACE = 'translation';

interface NamespaceFile {
  readonly language: string;
  readonly namespace: string;
  readonly member: ArchiveMember;
}

/** The member as a namespace file, or why it is not one (it is then not read, with a warning). */
function namespaceFile(member: ArchiveMember): NamespaceFile | string {
  // Hidden files are the system's (`.DS_Store`, macOS's `._common.json`), never a namespace.
  if (member.name.split('/').some((part) => part.startsWith('.'))) return 'a hidden file';
  const match = MEMBER.exec(member.name);
  if (!match) return 'outside the i18next layout <lang>/<namespace>.json';
  return { language: match[1]!, namespace: match[2]!, member };
}

/** The member's JSON object, or undefined after refusing it by name (not JSON, not an object). */
function memberObject(document: ImportDocument, { language, member }: NamespaceFile): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(member.text);
  } catch (error) {
    refuse(document, member.name, language, `not JSON: ${(error as Error).message}`);
    return undefined;
  }
  if (isObject(value)) return value;
  refuse(document, member.name, language, `must be an object of keys and texts, not ${describeJson(value)}`);
  return undefined;
}

/** Reads the archive's namespace files, letting other requests run between files. */
export async function readI18nextImport(members: readonly ArchiveMember[], baseLanguage: string, namespaces: boolean | undefined): Promise<ImportDocument> {
  const document = emptyDocument();
  const files: NamespaceFile[] = [];
  for (const member of members) {
    const file = namespaceFile(member);
    if (typeof file === 'string') warn(document, member.name, '', `not read: ${file}`);
    else files.push(file);
  }
  const asGroups = namespaces ?? files.some((file) => file.namespace !== DEFAULT_NAMESPACE);
  const turn = turnTaker();
  for (const file of files) {
    const value = memberObject(document, file);
    if (!value) continue;
    const { language, namespace, member } = file;
    startFile(document, member.name, language);
    const group = asGroups ? keyOf([namespace]) : null;
    if (group && language === baseLanguage) document.groups.set(namespace, group.path);
    const where = `the archive member "${member.name}"`;
    await readNested(document, language, value, (text) => text, { baseLanguage, depth: 1, document: where, turn, level: (entries, lng, at) => readI18nextLevel(document, entries, lng, at) }, group);
    // A member is up to 16 MiB of JSON (ARCHIVE_LIMITS): parsing and reading one can take a while.
    await yieldToEventLoop();
  }
  return document;
}
