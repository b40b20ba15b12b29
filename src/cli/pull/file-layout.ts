/**
 * The files a pull may write, per format: the names the server's export gives and nothing else, so a
 * hostile or compromised server cannot place `.git/config`, `package.json` or a script in `--out`.
 * Names are checked as text, before any byte of a file is read: a language tag of the locale catalog's
 * shape (`de`, `pt-BR`, `zh-Hant-TW`, `es-419`), namespaces of the names a group may have (ASCII
 * letters, digits, `_` and `-`; `/` between the folders of an i18next namespace), and the format's own
 * extension. No layout admits a dot-file, so none can name the pull's own `.tolk-pull.json`.
 */
import type { PullFormat } from './options.js';

export interface FileLayout {
  format: PullFormat;
  /** the names it admits, as a person reads them */
  shape: string;
  file: RegExp;
  /** the directories an archive may list (they are implied by the files, and never written themselves) */
  directory: RegExp | null;
}

/** BCP 47 as the catalog has it: a 2–3 letter language, then script, region or variant subtags. */
const LANGUAGE = '[a-z]{2,3}(?:-[A-Za-z0-9]{1,8})*';
/** The same in gen-l10n's spelling, `_` for `-` (`pt_BR`, `zh_Hant_TW`). */
const ARB_LOCALE = '[a-z]{2,3}(?:_[A-Za-z0-9]{1,8})*';
/** A group name under either key style, as an i18next namespace (or one folder of it) is one. */
const NAMESPACE_PART = '[A-Za-z0-9_-]{1,100}';

/** The layout of `format`'s files (i18next: with `--namespaces`, any namespace; without, `translation`). */
export function fileLayout(format: PullFormat, namespaces: boolean): FileLayout {
  switch (format) {
    case 'flutter':
      return { format, shape: 'app_<locale>.arb', file: new RegExp(`^app_${ARB_LOCALE}\\.arb$`), directory: null };
    case 'i18next':
      return namespaces
        ? { format, shape: '<lang>/<namespace>.json', file: new RegExp(`^${LANGUAGE}(?:/${NAMESPACE_PART})+\\.json$`), directory: new RegExp(`^${LANGUAGE}(?:/${NAMESPACE_PART})*$`) }
        : { format, shape: '<lang>/translation.json', file: new RegExp(`^${LANGUAGE}/translation\\.json$`), directory: new RegExp(`^${LANGUAGE}$`) };
    case 'json':
      return { format, shape: 'messages.json', file: /^messages\.json$/, directory: null };
    case 'vue-i18n':
      return { format, shape: '<lang>.json', file: new RegExp(`^${LANGUAGE}\\.json$`), directory: null };
  }
}

/** Why `name` (relative, `/` between folders) is not one of the layout's files or directories; undefined when it is. */
export function outsideLayout(layout: FileLayout, name: string, kind: 'file' | 'directory'): string | undefined {
  if (kind === 'directory') return layout.directory?.test(name) ? undefined : `not a directory of the ${layout.format} export`;
  return layout.file.test(name) ? undefined : `not a file of the ${layout.format} export (${layout.shape})`;
}
