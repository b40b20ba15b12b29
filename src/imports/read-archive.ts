/**
 * The members of an import's .tar.gz body, checked before any is read: regular files only, each path
 * relative and inside the archive (no `..`, no absolute path, no backslash), and at most
 * MAX_UNPACKED_BYTES unpacked in all (a small gzip can unpack to gigabytes).
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { validationError } from '../errors.js';

const gunzipAsync = promisify(gunzip);

/** Unpacked bytes an import archive may hold: room for IMPORT_MAX_BYTES of text at gzip's usual ratio, and a ceiling on memory. */
export const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;

export interface ArchiveMember {
  /** the path inside the archive, `/`-separated, without a leading `./` */
  readonly name: string;
  readonly text: string;
}

const corrupt = (why: string) => validationError(`the body is not a readable .tar.gz archive: ${why}`, '/body');

/** Why a member path is outside the archive's layout, or undefined when it is a plain relative path. */
function unsafePath(name: string): string | undefined {
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'is absolute';
  if (name.includes('\\')) return 'holds a backslash';
  if (name.split('/').some((part) => part === '..')) return 'climbs out of the archive (..)';
  if (name.includes('\u0000')) return 'holds a NUL character';
  return undefined;
}

/** The archive's files; 400 for a body that is not gzip, not tar, or holds a member outside its layout. */
export async function readArchive(body: Buffer): Promise<ArchiveMember[]> {
  let tar: Buffer;
  try {
    tar = await gunzipAsync(body, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw corrupt(code === 'ERR_BUFFER_TOO_LARGE' ? `it unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MiB` : 'it is not gzip data');
  }
  const members: ArchiveMember[] = [];
  const extractor = extract();
  const done = new Promise<void>((resolve, reject) => {
    extractor.on('entry', (header, stream, next) => {
      const name = header.name.replace(/^(\.\/)+/, '');
      const problem = unsafePath(name);
      if (problem) {
        stream.resume();
        reject(validationError(`the archive member "${name}" ${problem}: members must be paths inside the archive`, '/body'));
        return;
      }
      if (header.type === 'directory') {
        stream.resume();
        stream.on('end', next);
        return;
      }
      if (header.type !== 'file') {
        stream.resume();
        reject(validationError(`the archive member "${name}" is a ${header.type}: only regular files are read`, '/body'));
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        members.push({ name, text: Buffer.concat(chunks).toString('utf8') });
        next();
      });
      stream.on('error', reject);
    });
    extractor.on('finish', resolve);
    extractor.on('error', (error) => reject(corrupt(error.message)));
  });
  extractor.end(tar);
  await done;
  return members;
}
