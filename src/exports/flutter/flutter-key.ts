/** Flutter message keys: an entry's path as one lowerCamel word, and the keys gen-l10n cannot take. */
import { TECHNICAL_NAME } from '../../domain/shared/technical-names.js';
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

/** The gen-l10n key of an entry: group path + entry name in lowerCamel (`['auth','loginForm','submit']` → `authLoginFormSubmit`). */
export function flutterKey(path: readonly string[]): string {
  if (path.length === 0) throw new Error('a Flutter key needs at least the entry name');
  for (const part of path) {
    // Stored names always match; a miss means a caller bug, and guessing a key would hide it.
    if (!TECHNICAL_NAME.test(part)) throw new Error(`not a technical name: ${JSON.stringify(part)}`);
  }
  const key = path.map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1))).join('');
  // Holds by construction today; asserted so a looser name pattern can never emit a key gen-l10n rejects.
  if (!isGenL10nResourceName(key)) throw new Error(`gen-l10n would reject the key ${JSON.stringify(key)}`);
  return key;
}

/** Every key the Flutter export cannot write: shared by several paths, or taken by the generated class or by Dart. */
export function findKeyCollisions(paths: Iterable<readonly string[]>): KeyCollision[] {
  const pathsByKey = new Map<string, string[]>();
  for (const path of paths) {
    const key = flutterKey(path);
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
