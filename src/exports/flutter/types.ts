/** The shapes shared by the Flutter (gen-l10n ARB) building blocks. */

/**
 * Only the two types a stored text can need: `num` for a plural's count, `String` for everything
 * else (gen-l10n also knows int, double, DateTime and Object, which our texts never declare).
 */
export type PlaceholderType = 'String' | 'num';

/** One `{name}` a message uses, as the template's `"@key": {"placeholders": …}` declares it. */
export interface Placeholder {
  readonly name: string;
  readonly type: PlaceholderType;
}

/** The verdict on one text: gen-l10n's default syntax accepts it (with these placeholders), or why not. */
export type MessageCheck =
  | { readonly ok: true; readonly placeholders: Placeholder[] }
  | { readonly ok: false; readonly reason: string };

/** A key the Flutter export cannot write: shared by several entries, or breaking the generated class. */
export interface KeyCollision {
  /** the composite key, e.g. `authLoginTitle` */
  readonly key: string;
  /** `duplicate`: several paths give the key; `reserved`: the key is taken by the generated class or Dart */
  readonly kind: 'duplicate' | 'reserved';
  /** the dotted paths involved (`auth.loginTitle`), in the order they were given */
  readonly paths: readonly string[];
  /** one sentence for a person: which paths, which key, and what to rename */
  readonly message: string;
}

/** One message of an ARB file, in the order the file lists it. */
export interface ArbMessage {
  readonly key: string;
  readonly text: string;
  /** the entry's contextInfo; shown to translators, written only in the template */
  readonly description: string | null;
  readonly placeholders: readonly Placeholder[];
}
