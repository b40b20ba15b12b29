/**
 * Maps ARB keys back onto entries. A key is the lowerCamel composite of group path and entry name
 * (`authLoginSubmit`), so an ARB alone cannot say where the groups end. Each key is placed so that
 * the export gives the same key again:
 * 1. the existing entry whose composite key it is;
 * 2. a new entry under the deepest group (existing, or created by this push) whose composite key is
 *    a prefix of it ending at a capital letter, the rest of the key (first letter lowered) being the
 *    entry's name: `authLoginSubmit` under `auth` › `login` becomes `submit`;
 * 3. otherwise a new top-level group named by the key's first word, holding the rest:
 *    `authLoginSubmit` → `auth` › `loginSubmit`.
 * A shorter group prefix is tried when the rest is not a valid entry name (at least 4 characters);
 * a key that fits nowhere is skipped and reported, as is a translated key with no entry.
 */
import { ENTRY_NAME_LENGTH, TECHNICAL_NAME } from '../../domain/shared/technical-names.js';
import { flutterKey } from '../../exports/flutter/flutter-key.js';
import type { ResolvedInput, Skipped } from './plan.js';
import type { ProjectState } from './project-state.js';
import type { ArbInput } from './read-input.js';

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
const validEntryName = (name: string) => TECHNICAL_NAME.test(name) && [...name].length >= ENTRY_NAME_LENGTH.min;

/** The dotted path for a key that no entry has yet, adding any new group to `groupKeys`; undefined when none fits. */
function placeNewKey(key: string, groupKeys: Map<string, string>): string | undefined {
  const prefixes = [...groupKeys]
    .filter(([groupKey]) => key.startsWith(groupKey) && /[A-Z0-9]/.test(key.charAt(groupKey.length)))
    .sort(([a], [b]) => b.length - a.length);
  for (const [groupKey, groupPath] of prefixes) {
    const name = lowerFirst(key.slice(groupKey.length));
    if (validEntryName(name)) return `${groupPath}.${name}`;
  }
  const first = /^[a-z][a-z0-9]*/.exec(key)?.[0];
  if (!first) return undefined;
  const name = lowerFirst(key.slice(first.length));
  if (!validEntryName(name) || groupKeys.has(first)) return undefined;
  groupKeys.set(first, first);
  return `${first}.${name}`;
}

/** The ARB input as paths of the project's tree (see the rules above). */
export function resolveArbKeys(input: ArbInput, state: ProjectState): ResolvedInput {
  const base = state.baseLanguage;
  const pathOfKey = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const path of state.entries.keys()) {
    const key = flutterKey(path.split('.'));
    if (pathOfKey.has(key)) ambiguous.add(key);
    pathOfKey.set(key, path);
  }
  const groupKeys = new Map([...state.groups.keys()].map((path) => [flutterKey(path.split('.')), path]));
  const skipped: Skipped[] = [];
  const groups = new Set<string>();
  for (const key of input.texts.get(base)?.keys() ?? []) {
    if (pathOfKey.has(key) || ambiguous.has(key)) continue;
    const path = placeNewKey(key, groupKeys);
    if (path === undefined) {
      skipped.push({ language: base, path: key, reason: 'fits no group: a new key needs a group prefix and an entry name of at least 4 characters (^[a-z][a-zA-Z0-9]*$)' });
      continue;
    }
    pathOfKey.set(key, path);
    groups.add(path.slice(0, path.lastIndexOf('.')));
  }

  const texts = new Map<string, Map<string, string>>();
  for (const [language, byKey] of input.texts) {
    const byPath = new Map<string, string>();
    for (const [key, text] of byKey) {
      const path = pathOfKey.get(key);
      if (ambiguous.has(key)) skipped.push({ language, path: key, reason: 'several entries of the project have this key' });
      else if (path !== undefined) byPath.set(path, text);
      else if (language !== base) skipped.push({ language, path: key, reason: 'no entry has this key, and the base language\'s file does not hold it' });
    }
    texts.set(language, byPath);
  }
  const contextInfo = new Map<string, string | null>();
  for (const [key, description] of input.descriptions.get(base) ?? []) {
    const path = pathOfKey.get(key);
    if (path !== undefined && !ambiguous.has(key)) contextInfo.set(path, description);
  }
  return { texts, groups, contextInfo, skipped };
}
