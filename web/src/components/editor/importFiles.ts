/**
 * The import body from files a user picked or dropped, as `tolk push` packs a folder: the format is
 * guessed from the names (`.arb` → flutter; `<lng>/<ns>.json` paths → i18next; `<lang>.json` files →
 * vue-i18n; one JSON file → json), the JSON formats sent as one document, the archives as a .tar.gz
 * made here (a minimal ustar writer and the browser's CompressionStream).
 */
export type ImportFormat = 'json' | 'vue-i18n' | 'i18next' | 'flutter';

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

const I18NEXT_PATH = /(?:^|\/)([^/]+)\/([^/]+\.json)$/;

/** The format the files look like. */
export function guessFormat(files: readonly PickedFile[]): ImportFormat {
  if (files.some((file) => file.path.endsWith('.arb'))) return 'flutter';
  if (files.length > 0 && files.every((file) => I18NEXT_PATH.test(file.path))) return 'i18next';
  return files.length === 1 ? 'json' : 'vue-i18n';
}

const encoder = new TextEncoder();

/** One ustar header block for a regular file. */
function tarHeader(name: string, size: number): Uint8Array {
  const header = new Uint8Array(512);
  const put = (text: string, offset: number, length: number) => header.set(encoder.encode(text).subarray(0, length), offset);
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0');
  put(name, 0, 100);
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

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
/** `pt_BR.json` → pt-BR. */
const tagOf = (path: string) => baseName(path).replace(/\.json$/, '').replaceAll('_', '-');

function parse(file: PickedFile): unknown {
  try {
    return JSON.parse(file.text);
  } catch (error) {
    throw new Error(`${file.path}: ${(error as Error).message}`);
  }
}

/** The request body for `format`; throws a sentence naming the file when one cannot be read. */
export async function importBody(format: ImportFormat, files: readonly PickedFile[]): Promise<ImportBody> {
  switch (format) {
    case 'json':
      if (files.length !== 1) throw new Error('json takes one file: {"<lang>": {group: {entry: "message"}}}');
      return { format, data: files[0]!.text, contentType: 'application/json' };
    case 'vue-i18n': {
      const document = files.length === 1 && !/^[A-Za-z]{2,3}([_-][A-Za-z0-9]+)*\.json$/.test(baseName(files[0]!.path)) ? parse(files[0]!) : Object.fromEntries(files.map((file) => [tagOf(file.path), parse(file)]));
      return { format, data: JSON.stringify(document), contentType: 'application/json' };
    }
    case 'i18next':
      return {
        format,
        data: await tarGz(files.map((file) => {
          const match = I18NEXT_PATH.exec(file.path);
          if (!match) throw new Error(`${file.path}: i18next files are <lng>/<namespace>.json; pick the folder that holds the language folders`);
          return { name: `${match[1]}/${match[2]}`, text: file.text };
        })),
        contentType: 'application/gzip',
      };
    case 'flutter':
      return { format, data: await tarGz(files.filter((file) => file.path.endsWith('.arb')).map((file) => ({ name: baseName(file.path), text: file.text }))), contentType: 'application/gzip' };
  }
}
