/** The shapes shared by the Flutter (gen-l10n ARB) building blocks. */

import type { FlutterPlaceholder } from '../../messages/flutter/print-flutter.js';

/** A key the Flutter export cannot write: shared by several entries, or breaking the generated class. */
export interface KeyCollision {
  /** the composite key, e.g. `authLoginTitle` */
  readonly key: string;
  /** `duplicate`: several paths give the key; `reserved`: taken by the generated class or Dart; `invalid`: no Dart identifier */
  readonly kind: 'duplicate' | 'reserved' | 'invalid';
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
  readonly placeholders: readonly FlutterPlaceholder[];
  /** the ARB `@key` metadata an import kept for the entry (JSON), written again in the template */
  readonly kept?: string | null;
}
