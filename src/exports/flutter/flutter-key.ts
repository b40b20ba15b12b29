/** Flutter message keys: an entry's path as one lowerCamel word, and the keys gen-l10n cannot take. */
import { DART_RESERVED_WORDS, isGenL10nResourceName } from '../../messages/flutter/gen-l10n-names.js';
import type { KeyCollision } from './types.js';


/**
 * Members every generated Localizations class already has (gen_l10n_templates.dart, plus what it
 * inherits from Object). A message becomes a getter or method of that class, so one of these names
 * clashes with a static member or makes an invalid override, and the app stops compiling.
 */
const RESERVED_MEMBERS: ReadonlyMap<string, string> = new Map([
  ['localeName', 'the field holding the locale the class was built for'],
  ['delegate', 'its static LocalizationsDelegate'],
  ['supportedLocales', 'its static list of supported locales'],
  ['localizationsDelegates', 'its static list of delegates for MaterialApp'],
  ['of', 'its static of(context) lookup'],
  ['hashCode', "the hashCode getter inherited from Dart's Object"],
  ['runtimeType', "the runtimeType getter inherited from Dart's Object"],
  ['toString', "the toString() method inherited from Dart's Object"],
  ['noSuchMethod', "the noSuchMethod() method inherited from Dart's Object"],
]);

/**
 * The gen-l10n key of an entry: group path + entry name in lowerCamel (`['auth','loginForm','submit']`
 * → `authLoginFormSubmit`); the first part as it is, each later one with its first letter raised
 * (free names too: `['home', 'app_title']` → `homeApp_title`). Whether gen-l10n takes the key is
 * checked by findKeyCollisions.
 */
export function flutterKey(path: readonly string[]): string {
  if (path.length === 0) throw new Error('a Flutter key needs at least the entry name');
  return path.map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1))).join('');
}

/**
 * Every key the Flutter export cannot write: shared by several paths, or taken by the generated class
 * or by Dart. `paths` is walked twice when some key may be refused: the first walk keeps one count per
 * key and no path (a dotted path kept for each of 100,000 entries had raised a large export's peak
 * RSS by ~50 MB), the second the dotted paths of those keys only.
 */
export function findKeyCollisions(paths: Iterable<readonly string[]>): KeyCollision[] {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const key = flutterKey(path);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const suspects = new Set<string>();
  for (const [key, count] of counts) if (count > 1 || !isGenL10nResourceName(key) || reservedReason(key)) suspects.add(key);
  if (suspects.size === 0) return [];
  const pathsByKey = new Map<string, string[]>();
  for (const path of paths) {
    const key = flutterKey(path);
    if (!suspects.has(key)) continue;
    const dotted = path.join('.');
    const seen = pathsByKey.get(key);
    if (!seen) pathsByKey.set(key, [dotted]);
    else if (!seen.includes(dotted)) seen.push(dotted); // the same entry listed twice is not a collision
  }
  const collisions: KeyCollision[] = [];
  for (const [key, dotted] of pathsByKey) {
    if (dotted.length > 1) {
      collisions.push({
        key,
        kind: 'duplicate',
        paths: dotted,
        message: `${listPaths(dotted)} ${dotted.length === 2 ? 'both' : 'all'} become the Flutter key "${key}"; ` +
          'an ARB file holds one message per key, so rename one of them',
      });
    }
    if (!isGenL10nResourceName(key)) {
      collisions.push({
        key,
        kind: 'invalid',
        paths: dotted,
        message: `${listPaths(dotted)} ${dotted.length === 1 ? 'becomes' : 'become'} the Flutter key "${key}", which is no Dart identifier ` +
          'gen-l10n takes (a lowercase letter first, then letters, digits and _); rename the entry or one of its groups',
      });
      continue;
    }
    const why = reservedReason(key);
    if (why) {
      collisions.push({
        key,
        kind: 'reserved',
        paths: dotted,
        message: `${listPaths(dotted)} ${dotted.length === 1 ? 'becomes' : 'become'} the Flutter key "${key}", ${why}; ` +
          'rename the entry or one of its groups',
      });
    }
  }
  return collisions;
}

function reservedReason(key: string): string | undefined {
  const member = RESERVED_MEMBERS.get(key);
  if (member) return `which the generated Localizations class already has (${member}), so the app would not compile`;
  // A composite of two or more parts has an uppercase letter and every Dart reserved word is
  // lowercase, so only a one-part path can hit this; checked anyway, since the cost is nil.
  if (DART_RESERVED_WORDS.has(key)) return 'a Dart reserved word, which cannot name the generated getter';
  return undefined;
}

function listPaths(dotted: readonly string[]): string {
  const quoted = dotted.map((path) => `"${path}"`);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}
