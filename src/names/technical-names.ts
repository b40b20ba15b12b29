/**
 * The contract's rules for group and entry technical names, in one place: the domain checks every
 * name a write brings against its project's key style, `tolk doctor` checks stored names, the
 * exports and the import use the same rules.
 *
 * - `camelCase` (the default, the spec's rule): `^[a-z][a-zA-Z0-9]*$`, groups 1–100 and entries
 *   4–100 characters.
 * - `free` (a real app's own keys): 1–100 ASCII letters, digits, `_` and `-`; never `__proto__`,
 *   `constructor` or `prototype`; never ending in an i18next plural suffix (the forms of a plural
 *   belong in one message). No `.`, `:` or space: the exports' separators. A top-level group's name
 *   may also hold `/` between such names: it is an i18next namespace whose file sits in sub-folders
 *   (`<lng>/components/dialog.json`, CONTRACT "More of what real files hold").
 */
export const KEY_STYLES = ['camelCase', 'free'] as const;
export type KeyStyle = (typeof KEY_STYLES)[number];

export const TECHNICAL_NAME_PATTERN = '^[a-z][a-zA-Z0-9]*$';
export const TECHNICAL_NAME = new RegExp(TECHNICAL_NAME_PATTERN);
/** What the request schemas let through: the union of both styles; the domain applies the project's. */
export const ANY_STYLE_NAME_PATTERN = '^[A-Za-z0-9_-]+$';
/** The same for a group: `/` between names too, which the domain allows only at the top level under free. */
export const ANY_STYLE_GROUP_NAME_PATTERN = '^[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)*$';
const FREE_NAME = /^[A-Za-z0-9_-]+$/;
const FORBIDDEN_FREE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Lengths in characters (code points), both ends included. */
export const GROUP_NAME_LENGTH = { min: 1, max: 100 } as const;
export const ENTRY_NAME_LENGTH = { min: 4, max: 100 } as const;
export const FREE_NAME_LENGTH = { min: 1, max: 100 } as const;

/**
 * The group that holds a project's top-level keys (`{"ok": "OK"}` at the top of a file): a top-level
 * group with the empty name. The exports write its entries at the top level; only an import creates it.
 */
export const TOP_LEVEL_GROUP_NAME = '';

export type NameKind = 'group' | 'entry';

/** Where a name stands: a top-level group's name is an i18next namespace, which may name sub-folders. */
export interface NamePlace {
  readonly topLevel?: boolean;
}

/** The separator of a namespace's folders in a top-level group's name (free key style only). */
const NAMESPACE_FOLDER_SEPARATOR = '/';

/** Why one free name (or one folder of a namespace) breaks the rule, as a phrase; undefined if it fits. */
function freeNameProblem(name: string): string | undefined {
  if (!FREE_NAME.test(name)) return 'may hold only ASCII letters, digits, _ and - (no ., : or spaces: the exports\' separators)';
  if (FORBIDDEN_FREE_NAMES.has(name)) return `"${name}" is reserved by JavaScript objects`;
  if (PLURAL_SUFFIX.test(name)) return 'may not end in an i18next plural suffix (_zero, _one, _two, _few, _many, _other): the forms of a plural belong in one message';
  return undefined;
}

/** A top-level group's name with `/`: each folder of the namespace a free name of its own. */
function namespaceProblem(name: string): string | undefined {
  for (const part of name.split(NAMESPACE_FOLDER_SEPARATOR)) {
    if (part === '') return 'may not start or end with "/" or hold "//": "/" goes between the folders of an i18next namespace';
    const problem = freeNameProblem(part);
    if (problem) return `has the part "${part}", which ${problem}`;
  }
  return undefined;
}

/**
 * Why `name` breaks the key style's rule for a group or an entry name, as a phrase; undefined if it
 * fits. `place.topLevel`: the name is a top-level group's, where free allows `/` (namespace folders).
 */
export function nameProblem(name: string, kind: NameKind, style: KeyStyle, place: NamePlace = {}): string | undefined {
  if (style === 'free') {
    if (name.length < FREE_NAME_LENGTH.min || name.length > FREE_NAME_LENGTH.max) return `must be ${FREE_NAME_LENGTH.min}–${FREE_NAME_LENGTH.max} characters`;
    if (kind === 'entry' || !name.includes(NAMESPACE_FOLDER_SEPARATOR)) return freeNameProblem(name);
    if (place.topLevel) return namespaceProblem(name);
    return 'may hold "/" only at the top level (a top-level group is an i18next namespace, "/" between its folders)';
  }
  const length = kind === 'group' ? GROUP_NAME_LENGTH : ENTRY_NAME_LENGTH;
  if (!TECHNICAL_NAME.test(name)) return 'must be camelCase: a lowercase ASCII letter, then ASCII letters and digits (^[a-z][a-zA-Z0-9]*$)';
  const codePoints = [...name].length;
  if (codePoints < length.min || codePoints > length.max) return `must be ${length.min}–${length.max} characters`;
  return undefined;
}

/** Whether every name fits `style`. */
export function fitsKeyStyle(name: string, kind: NameKind, style: KeyStyle): boolean {
  return nameProblem(name, kind, style) === undefined;
}
