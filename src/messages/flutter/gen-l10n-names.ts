/**
 * The names gen-l10n accepts, learned from its source (gen_l10n.dart, message_parser.dart,
 * gen_l10n_templates.dart): message keys become getters or methods of the generated class,
 * placeholders their parameters, plural and select cases branches of the generated code.
 */

/**
 * Dart's reserved words: never usable as a getter, method or parameter name. Built-in identifiers
 * (`get`, `late`, `part`…) and contextual keywords (`await`, `yield`, `on`…) are left out on purpose:
 * they are legal as member and parameter names of the non-async methods gen-l10n writes.
 */
export const DART_RESERVED_WORDS: ReadonlySet<string> = new Set([
  'assert', 'break', 'case', 'catch', 'class', 'const', 'continue', 'default', 'do', 'else', 'enum',
  'extends', 'false', 'final', 'finally', 'for', 'if', 'in', 'is', 'new', 'null', 'rethrow', 'return',
  'super', 'switch', 'this', 'throw', 'true', 'try', 'var', 'void', 'while', 'with',
]);

/** Names the generated method body uses itself (`intl.Intl.pluralLogic(…, locale: localeName)`). */
const SHADOWED_NAMES = new Set(['intl', 'localeName']);

/** Plural categories gen-l10n writes code for; `=0`, `=1`, `=2` are filed under the first three. */
const PLURAL_CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);
const EXACT_PLURAL_CASES: ReadonlyMap<string, string> = new Map([['=0', 'zero'], ['=1', 'one'], ['=2', 'two']]);

/** gen-l10n's lexer makes these keywords unless they follow `{`, so they can never be select cases. */
const KEYWORDS = new Set(['plural', 'select', 'date', 'time']);

/** True when gen-l10n accepts `name` as a message key (`_isValidGetterAndMethodName`: [a-zA-Z0-9_], lowercase first). */
export function isGenL10nResourceName(name: string): boolean {
  return /^[a-z][a-zA-Z0-9_]*$/.test(name);
}

/**
 * Why `name` cannot be a placeholder, or undefined if it can. Stricter than gen-l10n's lexer, which
 * also takes `_x` and `a|b`: a `|` is invalid in the Dart parameter it becomes, and `_` alone is a
 * wildcard that cannot be read; starting with a letter stays clear of both.
 */
export function placeholderNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) return 'a placeholder name must start with a letter';
  if (DART_RESERVED_WORDS.has(name)) return 'a Dart reserved word cannot name a placeholder';
  if (SHADOWED_NAMES.has(name)) return 'the generated Dart code uses that name itself';
  return undefined;
}

/** The category gen-l10n files a plural case under (`=1` → `one`), or undefined when it has none. */
export function pluralCategory(label: string): string | undefined {
  return EXACT_PLURAL_CASES.get(label) ?? (PLURAL_CATEGORIES.has(label) ? label : undefined);
}

/**
 * True when gen-l10n takes `label` (a run of [A-Za-z0-9_]) as a select case. Stricter on digits: its
 * lexer splits `1a` into a number and a word, which its grammar refuses; a bare number passes the
 * parser but trips the generator's assert that a case is a word, so it is refused as well.
 */
export function isSelectCase(label: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(label) && !KEYWORDS.has(label);
}
