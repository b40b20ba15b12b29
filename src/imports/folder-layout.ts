/**
 * Which files of a folder an import reads, as what, and why each other file is not read (CONTRACT
 * "Import": nothing is skipped silently). The one place for the layouts `tolk push` packs from a folder
 * on disk and the web app's Import dialog packs from the files a user picked:
 * - json: the file given, or `messages.json`;
 * - vue-i18n: the file given (all languages in one), or one `<lang>.json` per language, flat or nested;
 * - i18next: `<lng>/<ns>.json`, namespaces in sub-folders too (`<lng>/components/dialog.json`), in the
 *   folder, its `locales/` or `public/locales/`; or one `<lang>.json` per language (the default namespace);
 * - flutter: the `*.arb` files of the folder, of `l10n.yaml`'s `arb-dir`, or of `lib/l10n`.
 * Pure (paths in, decisions out): the callers list and read the files, and pack what is read.
 */
import { isKnownLocale, suggestLocale } from '../locales/locale-catalog.js';

export type LayoutFormat = 'json' | 'vue-i18n' | 'i18next' | 'flutter';

/**
 * How the files read make the import's body: `document`, the one file read is the body (json, or
 * vue-i18n's file of all languages); `languages`, a JSON object of each file's content under its
 * language; `archive`, a .tar.gz of the files, each a member.
 */
export type BodyShape = 'document' | 'languages' | 'archive';

export interface FileRead {
  /** `/`-separated, relative to the folder given */
  readonly path: string;
  /** the archive member's name, or the language key of a `languages` body; '' for a `document` */
  readonly as: string;
}

export interface FileNotRead {
  readonly path: string;
  /** the language of the body it gave, when that language (not the file) was not taken */
  readonly language?: string;
  readonly why: string;
}

export interface FolderLayout {
  /** where the layout's files are, relative to the folder given ('' for the folder itself) */
  readonly root: string;
  readonly body: BodyShape;
  readonly read: FileRead[];
  readonly notRead: FileNotRead[];
}

/** The file the json format reads in a folder (`tolk pull --format json` writes it). */
export const JSON_DOCUMENT = 'messages.json';
const DEFAULT_ARB_DIR = 'lib/l10n';

/** `./a//b/` → `a/b`: the relative path as the layouts compare it. */
const normalized = (path: string) => path.replaceAll('\\', '/').split('/').filter((part) => part !== '' && part !== '.').join('/');

/** A file or folder name that is a language tag tolk knows, `_` or `-` between its parts (`pt_BR`, `de-DE`, `zh-Hant`). */
export function isLanguageName(name: string): boolean {
  const tag = name.replaceAll('_', '-');
  return isKnownLocale(tag) || suggestLocale(tag) !== undefined;
}

/** The body key of a `<lang>.json` file: `pt_BR.json` → pt-BR. */
const tagOf = (fileName: string) => fileName.replace(/\.json$/, '').replaceAll('_', '-');

/** `arb-dir` of an l10n.yaml (a one-line key: no YAML parser needed for it), else gen-l10n's default. */
export function arbDirOf(l10nYaml: string): string {
  const match = /^arb-dir:\s*["']?([^"'\n#]+?)["']?\s*(?:#.*)?$/m.exec(l10nYaml);
  return normalized(match?.[1] ?? DEFAULT_ARB_DIR);
}

/** The folders, relative to the one given, where the format's files are looked for, in that order. */
export function layoutRoots(format: LayoutFormat, arbDir = DEFAULT_ARB_DIR): string[] {
  if (format === 'i18next') return ['', 'locales', 'public/locales'];
  if (format === 'flutter') return [...new Set(['', normalized(arbDir), DEFAULT_ARB_DIR])];
  return [''];
}

/** Where the format looked, for a message: "in it, in locales/ and in public/locales/". */
export function whereLooked(format: LayoutFormat, arbDir?: string): string {
  const places = layoutRoots(format, arbDir).map((root) => (root === '' ? 'in it' : `in ${root}/`));
  return places.length === 1 ? places[0]! : `${places.slice(0, -1).join(', ')} and ${places.at(-1)}`;
}

/** What the format reads, for a message. */
export const LAYOUT_NAMES: Record<LayoutFormat, string> = {
  json: JSON_DOCUMENT,
  'vue-i18n': '<lang>.json',
  i18next: '<lng>/<namespace>.json or <lang>.json',
  flutter: '.arb files',
};

type Decide = (path: string, parts: string[]) => FileRead | FileNotRead;

/** Each path read or not by `decide`, hidden files never read; a second file for one body key is not read either. */
function sorted(paths: readonly string[], body: BodyShape, decide: Decide): FolderLayout {
  const layout: FolderLayout = { root: '', body, read: [], notRead: [] };
  const readAs = new Map<string, string>();
  for (const path of [...new Set(paths.map(normalized))].sort()) {
    const parts = path.split('/');
    const hidden = parts.findIndex((part) => part.startsWith('.'));
    if (hidden !== -1) {
      layout.notRead.push({ path, why: hidden === parts.length - 1 ? 'a hidden file' : 'in a hidden folder' });
      continue;
    }
    const decision = decide(path, parts);
    if ('why' in decision) {
      layout.notRead.push(decision);
      continue;
    }
    const first = readAs.get(decision.as);
    if (first !== undefined) {
      layout.notRead.push({ path, why: `a second file for ${decision.as} (${first} is read)` });
      continue;
    }
    readAs.set(decision.as, path);
    layout.read.push(decision);
  }
  return layout;
}

const notJson = (path: string, parts: string[]) => (parts.at(-1)!.endsWith('.json') ? undefined : { path, why: 'not a .json file' });

function jsonLayout(paths: readonly string[]): FolderLayout {
  return sorted(paths, 'document', (path, parts) => {
    if (path === JSON_DOCUMENT) return { path, as: '' };
    return notJson(path, parts) ?? { path, why: `json reads ${JSON_DOCUMENT} at the folder's top (give --in or pick the file itself to read another)` };
  });
}

/** `<lang>.json` at the folder's top, each read as `as(tag)`; `reads` says what, in the reasons, `nested` why a file in a sub-folder is not. */
function languageFiles(paths: readonly string[], body: BodyShape, reads: string, as: (tag: string) => string, nested = `in a sub-folder: ${reads} at the folder's top`): FolderLayout {
  return sorted(paths, body, (path, parts) => {
    const name = parts.at(-1)!;
    if (parts.length > 1) return notJson(path, parts) ?? { path, why: nested };
    const stem = name.replace(/\.json$/, '');
    if (!isLanguageName(stem)) return notJson(path, parts) ?? { path, why: `"${stem}" is no language tag: ${reads}` };
    return notJson(path, parts) ?? { path, as: as(tagOf(name)) };
  });
}

function i18nextLayout(paths: readonly string[]): FolderLayout {
  const reads = 'i18next reads <lng>/<namespace>.json';
  const languageFolders = paths.map(normalized).some((path) => {
    const parts = path.split('/');
    return parts.length > 1 && isLanguageName(parts[0]!) && path.endsWith('.json') && !parts.some((part) => part.startsWith('.'));
  });
  if (!languageFolders) {
    const either = 'i18next reads <lng>/<namespace>.json or <lang>.json';
    return languageFiles(paths, 'archive', either, (tag) => `${tag}/translation.json`, `in a folder that is no language: ${either}`);
  }
  return sorted(paths, 'archive', (path, parts) => {
    if (parts.length === 1) return { path, why: `outside the language folders: ${reads}` };
    if (!isLanguageName(parts[0]!)) return { path, why: `"${parts[0]}" is no language tag: ${reads}` };
    return notJson(path, parts) ?? { path, as: path };
  });
}

function flutterLayout(paths: readonly string[]): FolderLayout {
  return sorted(paths, 'archive', (path, parts) => {
    if (!path.endsWith('.arb')) return { path, why: 'not an .arb file' };
    if (parts.length > 1) return { path, why: "in a sub-folder: gen-l10n reads the .arb files at the arb-dir's top" };
    return { path, as: path };
  });
}

/**
 * The files of one folder (paths relative to it) read or not, and as what. `single`: the one path is a
 * file the user gave by itself, read whole where the format takes a whole file (json; vue-i18n's file of
 * all languages).
 */
export function readLayout(format: LayoutFormat, paths: readonly string[], single = false): FolderLayout {
  if (single && paths.length === 1 && (format === 'json' || format === 'vue-i18n')) {
    const path = normalized(paths[0]!);
    const named = format === 'vue-i18n' ? languageFiles([path], 'languages', '', (tag) => tag) : undefined;
    // One <lang>.json given alone is that language's file; any other file given alone holds every language.
    return named && named.read.length === 1 ? named : { root: '', body: 'document', read: [{ path, as: '' }], notRead: [] };
  }
  switch (format) {
    case 'json':
      return jsonLayout(paths);
    case 'vue-i18n':
      return languageFiles(paths, 'languages', 'vue-i18n reads <lang>.json files', (tag) => tag);
    case 'i18next':
      return i18nextLayout(paths);
    case 'flutter':
      return flutterLayout(paths);
  }
}

/** The paths under `root`, relative to it. */
function under(root: string, paths: readonly string[]): string[] {
  if (root === '') return paths.map(normalized);
  return paths.map(normalized).filter((path) => path.startsWith(`${root}/`)).map((path) => path.slice(root.length + 1));
}

/** The first of the format's folders (layoutRoots) whose files hold any the format reads; paths relative to the folder given. */
export function findLayoutRoot(format: LayoutFormat, paths: readonly string[], arbDir?: string): string | undefined {
  return layoutRoots(format, arbDir).find((root) => readLayout(format, under(root, paths)).read.length > 0);
}

/** Why a file beside the layout's folder `root` is not read (l10n.yaml is, for its arb-dir, but is no translation). */
const outsideWhy = (format: LayoutFormat, root: string, path: string) =>
  format === 'flutter' && path === 'l10n.yaml' ? `gen-l10n's settings: read for its arb-dir (${root}/)` : `outside ${root}/, where the ${format} files are`;

/**
 * Every file of a folder (paths relative to it, as a browser gives a picked folder) read or not: the
 * layout is looked for in the format's folders (layoutRoots); files outside the one found are not read.
 */
export function folderLayout(format: LayoutFormat, paths: readonly string[], options: { single?: boolean; arbDir?: string } = {}): FolderLayout {
  const root = options.single ? '' : (findLayoutRoot(format, paths, options.arbDir) ?? '');
  const layout = readLayout(format, under(root, paths), options.single);
  if (root === '') return layout;
  const inRoot = (path: string) => `${root}/${path}`;
  const outside = paths.map(normalized).filter((path) => !path.startsWith(`${root}/`));
  return {
    root,
    body: layout.body,
    read: layout.read.map((file) => ({ ...file, path: inRoot(file.path) })),
    notRead: [...outside.map((path) => ({ path, why: outsideWhy(format, root, path) })), ...layout.notRead.map((file) => ({ ...file, path: inRoot(file.path) }))],
  };
}
