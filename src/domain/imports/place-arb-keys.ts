/**
 * Where each ARB key lands on the project's tree. A key is the lowerCamel composite of group path and
 * entry name (`authLoginSubmit`), so an ARB file alone cannot say where groups end; each key is placed
 * so that the Flutter export gives the same key again:
 * 1. the existing entry whose composite key it is;
 * 2. under the deepest group (existing, or made by this import) whose composite key is a prefix of it
 *    ending before a capital letter or a digit, the rest (first letter lowered) as the entry's name:
 *    `authLoginSubmit` under `auth` › `login` is `submit`;
 * 3. a new top-level group named by its first word, holding the rest: `settingsTitle` → `settings` › `title`
 *    (unless that word is a key of the file itself: `product` beside `productName`);
 * 4. a top-level key of its own name (`ok`, `hello_world`), when the key style allows that name.
 * A key that fits none of these is refused with the rule it breaks.
 */
import { flutterKey } from '../../exports/flutter/flutter-key.js';
import { pathKey, refuse, type ImportDocument, type ImportKey } from '../../imports/import-document.js';
import { fitsKeyStyle, nameProblem, type KeyStyle } from '../../names/technical-names.js';
import type { ImportState } from './import-state.js';

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The document with every ARB key replaced by its path on the tree (descriptions and metadata moved along). */
export function placeArbKeys(document: ImportDocument, state: ImportState, baseLanguage: string, style: KeyStyle): ImportDocument {
  const pathOfKey = new Map<string, readonly string[]>();
  for (const entry of state.entries.values()) pathOfKey.set(flutterKey(entry.path), entry.path);
  const groupByKey = new Map<string, readonly string[]>();
  for (const group of state.groups.values()) groupByKey.set(flutterKey(group.path), group.path);
  const topLevelNames = new Set([...state.entries.values()].filter((entry) => entry.path.length === 1).map((entry) => entry.path[0]!));

  const fileKeys = new Set(document.texts.get(baseLanguage)?.keys() ?? []);
  const place = (key: string): readonly string[] | string => {
    // Every prefix ending before a capital or a digit, longest first: a lookup each, not a scan of the groups.
    for (let end = key.length - 1; end > 0; end -= 1) {
      if (!/[A-Z0-9]/.test(key.charAt(end))) continue;
      const groupPath = groupByKey.get(key.slice(0, end));
      if (!groupPath) continue;
      const name = lowerFirst(key.slice(end));
      const path = [...groupPath, name];
      if (fitsKeyStyle(name, 'entry', style) && flutterKey(path) === key) return path;
    }
    const first = /^[a-z][a-z0-9]*(?=[A-Z])/.exec(key)?.[0];
    // A first word that is itself a key of the file (`product` beside `productName`) makes no group: both stay keys.
    if (first && !groupByKey.has(first) && !topLevelNames.has(first) && !fileKeys.has(first) && fitsKeyStyle(first, 'group', style)) {
      const name = lowerFirst(key.slice(first.length));
      if (fitsKeyStyle(name, 'entry', style)) {
        groupByKey.set(first, [first]);
        return [first, name];
      }
    }
    const problem = nameProblem(key, 'entry', style);
    if (problem === undefined && !groupByKey.has(key)) {
      topLevelNames.add(key);
      return [key];
    }
    return `fits no group, and as a top-level key the name ${problem ?? 'is taken by a group'} (keyStyle ${style})`;
  };

  const placed: ImportDocument = { ...document, keys: new Map(), texts: new Map(), contextInfo: new Map(), arbMetadata: new Map(), arbKeys: false };
  const refusedKeys = new Set<string>();
  for (const key of document.texts.get(baseLanguage)?.keys() ?? []) {
    if (pathOfKey.has(key)) continue;
    const where = place(key);
    if (typeof where === 'string') {
      refuse(placed, key, baseLanguage, where);
      refusedKeys.add(key);
    } else {
      pathOfKey.set(key, where);
    }
  }
  for (const [language, texts] of document.texts) {
    const moved = new Map<string, string>();
    for (const [key, text] of texts) {
      const path = pathOfKey.get(key);
      if (!path) {
        if (language === baseLanguage) continue; // refused above
        const why = refusedKeys.has(key) ? 'skipped: its base text was refused' : "skipped: no entry has this key, and the base language's file does not hold it";
        placed.warnings.push({ key, language, code: 'WARNING', message: why });
        continue;
      }
      const placedKey = pathKey(path);
      // the report keeps calling it by its ARB key
      if (!placed.keys.has(placedKey)) placed.keys.set(placedKey, { path, key } satisfies ImportKey);
      moved.set(placedKey, text);
    }
    placed.texts.set(language, moved);
  }
  for (const [key, description] of document.contextInfo) {
    const path = pathOfKey.get(key);
    if (path) placed.contextInfo.set(pathKey(path), description);
  }
  for (const [key, metadata] of document.arbMetadata) {
    const path = pathOfKey.get(key);
    if (path) placed.arbMetadata.set(pathKey(path), metadata);
  }
  return placed;
}
