// vue-i18n 9–11 resolve a flat dotted key (`{ "auth.login.submit": … }`) with t('auth.login.submit') and no
// options: path lookup finds nothing, then the flat key is read. Technical names match ^[a-z][a-zA-Z0-9]*$
// (enforced at write time), so no name holds a dot and the join cannot be ambiguous.

/** The vue-i18n message key of an entry: its group technical names, then its own, joined with dots. */
export function vueKey(path: readonly string[]): string {
  return path.join('.');
}
