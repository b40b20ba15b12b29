/**
 * Packs what `tolk push` sends: the files at `--in` in the import body of their format (CONTRACT,
 * "Import"). Which files are read, and as what, is the layout's (src/imports/folder-layout.ts, shared
 * with the web app): it is looked for in the format's folders (an app's `public/locales/`, l10n.yaml's
 * `arb-dir`…) among every file under `--in` (walk-folder.ts), and every file found is read or said why not.
 * The server converts and checks everything; here only the files are found and packed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { arbDirOf, folderLayout, LAYOUT_NAMES, readLayout, whereLooked, type FileNotRead, type FolderLayout } from '../../imports/folder-layout.js';
import type { PushFormat } from './options.js';
import { walkFolder } from './walk-folder.js';

export interface PackedBody {
  contentType: 'application/json' | 'application/gzip';
  body: Buffer;
  /** every file found, read (as what) or not (why); paths relative to `--in` (the file's name when `--in` is a file) */
  layout: FolderLayout;
}

/** `--in` holds no file the format reads: the one-line reason, and every file found there with why it is not read. */
export class NothingToRead extends Error {
  constructor(message: string, readonly notRead: FileNotRead[]) {
    super(message);
  }
}

const isDirectory = (path: string) => existsSync(path) && statSync(path).isDirectory();

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function readJson(path: string): unknown {
  const text = readText(path);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

async function tarGz(files: ReadonlyArray<readonly [name: string, text: string]>): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve());
    archive.on('error', reject);
  });
  for (const [name, text] of files) archive.entry({ name, mode: 0o644 }, text);
  archive.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks), { level: 6 });
}


/**
 * The files of the folder `dir`, read or not: every file under it is walked (within WALK_LIMITS, the
 * places not looked into named), and the shared layout (folder-layout.ts, as the web app's dialog) finds
 * the format's folder among them and says why each other file is not read.
 */
function layoutOfFolder(format: PushFormat, dir: string): FolderLayout {
  const yaml = join(dir, 'l10n.yaml');
  const arbDir = format === 'flutter' && existsSync(yaml) ? arbDirOf(readText(yaml)) : undefined;
  const walk = walkFolder(dir);
  const layout = folderLayout(format, walk.paths, { arbDir });
  const notRead = [...walk.notes, ...layout.notRead];
  if (layout.read.length === 0) throw new NothingToRead(`${dir} holds no ${LAYOUT_NAMES[format]} (looked ${whereLooked(format, arbDir)})`, notRead);
  return { ...layout, notRead };
}

/** The import body of the files at `path` in `format`; throws NothingToRead when none is read, a one-line reason for an unreadable one. */
export async function packFiles(format: PushFormat, path: string): Promise<PackedBody> {
  if (!existsSync(path)) throw new Error(`cannot read ${path}: ENOENT`);
  const given = isDirectory(path);
  const dir = given ? path : dirname(path);
  const layout = given ? layoutOfFolder(format, path) : readLayout(format, [basename(path)], true);
  if (layout.read.length === 0) throw new NothingToRead(`${path} is no file of the ${format} format: ${layout.notRead[0]?.why ?? 'not read'}`, layout.notRead);
  const local = (file: { path: string }) => join(dir, file.path);
  switch (layout.body) {
    case 'document':
      return { contentType: 'application/json', body: Buffer.from(JSON.stringify(readJson(local(layout.read[0]!))), 'utf8'), layout };
    case 'languages': {
      const document = Object.fromEntries(layout.read.map((file) => [file.as, readJson(local(file))]));
      return { contentType: 'application/json', body: Buffer.from(JSON.stringify(document), 'utf8'), layout };
    }
    case 'archive':
      return { contentType: 'application/gzip', body: await tarGz(layout.read.map((file) => [file.as, readText(local(file))] as const)), layout };
  }
}
