/**
 * The import body from files a user picked or dropped, as `tolk push` packs a folder: which files are
 * read, and as what, is the shared layout's (src/imports/folder-layout.ts), so the dialog can say why
 * each other file is not read; the format is guessed from the names (`.arb` → flutter; language
 * folders → i18next; one file or `messages.json` → json; else vue-i18n), the JSON formats are sent as
 * one document, the archives as a .tar.gz made here (a minimal ustar writer and the browser's
 * CompressionStream).
 */
import type { FolderLayout, LayoutFormat } from '../../../../src/imports/folder-layout.js';

/** The layouts, loaded when files are first picked: they know every language tag (the locale catalog), which the editor needs no other time. */
const layouts = () => import('../../../../src/imports/folder-layout.js');

export type ImportFormat = LayoutFormat;

export interface PickedFile {
  /** the path inside a picked folder (webkitRelativePath), else the file name */
  path: string;
  text: string;
}

export interface ImportBody {
  format: ImportFormat;
  data: Blob | string;
  contentType: 'application/json' | 'application/gzip';
}

/**
 * The files' paths relative to the folder picked: a browser names each file of a picked folder under the
 * folder's own name (`locales/en/common.json` for the folder `locales`), which is no part of the layout.
 */
function relativeFiles(files: readonly PickedFile[]): Map<string, string> {
  const first = files[0]?.path.split('/')[0];
  const underPicked = files.length > 0 && files.every((file) => file.path.includes('/') && file.path.split('/')[0] === first);
  return new Map(files.map((file) => [underPicked ? file.path.slice(first!.length + 1) : file.path, file.text]));
}

/** Which of the files `format` reads, as what, and why it reads each other one not; paths relative to the folder picked. */
export async function layoutOf(format: ImportFormat, files: readonly PickedFile[]): Promise<FolderLayout> {
  const { arbDirOf, folderLayout } = await layouts();
  const byPath = relativeFiles(files);
  const yaml = byPath.get('l10n.yaml');
  return folderLayout(format, [...byPath.keys()], { single: files.length === 1, arbDir: yaml === undefined ? undefined : arbDirOf(yaml) });
}

/** The format the files look like. */
export async function guessFormat(files: readonly PickedFile[]): Promise<ImportFormat> {
  const { isLanguageName, JSON_DOCUMENT } = await layouts();
  const paths = [...relativeFiles(files).keys()];
  if (paths.some((path) => path.endsWith('.arb'))) return 'flutter';
  const inLanguageFolder = (path: string) => path.endsWith('.json') && path.split('/').slice(0, -1).some(isLanguageName);
  if (paths.some(inLanguageFolder)) return 'i18next';
  return paths.length === 1 || paths.includes(JSON_DOCUMENT) ? 'json' : 'vue-i18n';
}

const encoder = new TextEncoder();

/** A member's path as ustar's name (100 bytes) and prefix (155 bytes) fields: `<lng>/<sub-folders>/<ns>.json` may be longer than the name. */
function ustarName(path: string): [name: string, prefix: string] {
  if (encoder.encode(path).length <= 100) return [path, ''];
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
    const [prefix, name] = [path.slice(0, cut), path.slice(cut + 1)];
    if (encoder.encode(prefix).length <= 155 && encoder.encode(name).length <= 100) return [name, prefix];
  }
  throw new Error(`${path}: the path is too long for an archive member`);
}

/** One ustar header block for a regular file. */
function tarHeader(path: string, size: number): Uint8Array {
  const header = new Uint8Array(512);
  const put = (text: string, offset: number, length: number) => header.set(encoder.encode(text).subarray(0, length), offset);
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0');
  const [name, prefix] = ustarName(path);
  put(name, 0, 100);
  put(prefix, 345, 155);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(0, 12), 136, 12);
  put('        ', 148, 8);
  put('0', 156, 1);
  put('ustar', 257, 6);
  put('00', 263, 2);
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  put(`${octal(checksum, 7)}\0`, 148, 8);
  return header;
}

/** The files as a .tar.gz. */
export async function tarGz(files: ReadonlyArray<{ name: string; text: string }>): Promise<Blob> {
  const parts: Uint8Array[] = [];
  for (const { name, text } of files) {
    const content = encoder.encode(text);
    parts.push(tarHeader(name, content.length), content, new Uint8Array((512 - (content.length % 512)) % 512));
  }
  parts.push(new Uint8Array(1024));
  const tar = new Blob(parts as BlobPart[]);
  return new Response(tar.stream().pipeThrough(new CompressionStream('gzip'))).blob();
}

function parse(path: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
}

/** The request body of the files `layout` reads; throws a sentence naming the file when one cannot be read. */
export async function importBody(format: ImportFormat, files: readonly PickedFile[], layout: FolderLayout): Promise<ImportBody> {
  const byPath = relativeFiles(files);
  const text = (path: string) => byPath.get(path) ?? '';
  if (layout.read.length === 0) throw new Error(`none of the files is read as ${format}`);
  switch (layout.body) {
    case 'document':
      return { format, data: text(layout.read[0]!.path), contentType: 'application/json' };
    case 'languages':
      return { format, data: JSON.stringify(Object.fromEntries(layout.read.map((file) => [file.as, parse(file.path, text(file.path))]))), contentType: 'application/json' };
    case 'archive':
      return { format, data: await tarGz(layout.read.map((file) => ({ name: file.as, text: text(file.path) }))), contentType: 'application/gzip' };
  }
}
