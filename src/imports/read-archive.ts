/**
 * The members of an import's .tar.gz body: regular files only, each path relative and inside the
 * archive (no `..`, no absolute path, no backslash), read within ARCHIVE_LIMITS (import-limits.ts).
 * The body is unpacked as a stream and counted as it goes: the first limit passed stops the reading
 * (413 naming it), so a small gzip that unpacks to gigabytes, or to a hundred thousand members, costs
 * no more than the limits allow.
 */
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { AppError, validationError } from '../errors.js';
import { ARCHIVE_LIMITS, type ArchiveLimits } from './import-limits.js';

export interface ArchiveMember {
  /** the path inside the archive, `/`-separated, without a leading `./` */
  readonly name: string;
  readonly text: string;
}

/** Output chunks of the gunzip stream: fewer, larger chunks than zlib's 16 KiB. */
const UNPACK_CHUNK_BYTES = 64 * 1024;

const corrupt = (why: string) => validationError(`the body is not a readable .tar.gz archive: ${why}`, '/body');
const overLimit = (why: string) => new AppError('ERR_PAYLOAD_TOO_LARGE', `the archive is refused: ${why}`, [{ path: '/body', message: why }]);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toLocaleString('en')} MiB`;

/** Why a member path is outside the archive's layout, or undefined when it is a plain relative path. */
function unsafePath(name: string): string | undefined {
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'is absolute';
  if (name.includes('\\')) return 'holds a backslash';
  if (name.split('/').some((part) => part === '..')) return 'climbs out of the archive (..)';
  if (name.includes('\u0000')) return 'holds a NUL character';
  return undefined;
}

/** The unpacked bytes `body` may give, and the limit that sets it, said as a refusal says it. */
function unpackedCap(body: Buffer, limits: ArchiveLimits): { bytes: number; why: string } {
  const byRatio = Math.max(limits.ratioFreeBytes, limits.ratio * body.length);
  if (byRatio < limits.unpackedBytes) {
    return { bytes: byRatio, why: `it unpacks to more than ${limits.ratio} times its ${body.length.toLocaleString('en')} bytes (the compression ratio limit; ${mib(limits.ratioFreeBytes)} are always allowed)` };
  }
  return { bytes: limits.unpackedBytes, why: `it unpacks to more than ${mib(limits.unpackedBytes)} (the unpacked size limit)` };
}

/** The archive's files; 400 for a body that is not gzip, not tar, or holds a member outside its layout, 413 past a limit. */
export function readArchive(body: Buffer, limits: ArchiveLimits = ARCHIVE_LIMITS): Promise<ArchiveMember[]> {
  const cap = unpackedCap(body, limits);
  const members: ArchiveMember[] = [];
  const gunzip = createGunzip({ chunkSize: UNPACK_CHUNK_BYTES });
  const extractor = extract();
  return new Promise<ArchiveMember[]>((resolve, reject) => {
    let stopped = false;
    const stop = (error: Error) => {
      if (stopped) return;
      stopped = true;
      reject(error);
      gunzip.destroy();
      extractor.destroy();
    };
    let unpacked = 0;
    gunzip.on('data', (chunk: Buffer) => {
      if (stopped) return;
      unpacked += chunk.length;
      if (unpacked > cap.bytes) return stop(overLimit(cap.why));
      if (!extractor.write(chunk)) {
        gunzip.pause();
        extractor.once('drain', () => gunzip.resume());
      }
    });
    gunzip.on('end', () => extractor.end(undefined));
    gunzip.on('error', () => stop(corrupt('it is not gzip data')));

    let count = 0;
    extractor.on('entry', (header, stream, next) => {
      const name = header.name.replace(/^(\.\/)+/, '');
      if ((count += 1) > limits.members) return stop(overLimit(`it holds more than ${limits.members.toLocaleString('en')} members (the member count limit)`));
      const problem = unsafePath(name);
      if (problem) return stop(validationError(`the archive member "${name}" ${problem}: members must be paths inside the archive`, '/body'));
      if (header.type === 'directory') {
        stream.on('error', stop);
        stream.on('end', next);
        stream.resume();
        return;
      }
      if (header.type !== 'file') return stop(validationError(`the archive member "${name}" is a ${header.type}: only regular files are read`, '/body'));
      const size = header.size ?? 0;
      if (size > limits.memberBytes) {
        return stop(overLimit(`the member "${name}" unpacks to ${size.toLocaleString('en')} bytes, more than ${mib(limits.memberBytes)} (the member size limit)`));
      }
      const chunks: Buffer[] = [];
      stream.on('error', stop);
      stream.on('data', (chunk) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        members.push({ name, text: Buffer.concat(chunks).toString('utf8') });
        next();
      });
    });
    extractor.on('finish', () => {
      if (!stopped) resolve(members);
    });
    extractor.on('error', (error: Error) => stop(corrupt(error.message)));
    gunzip.end(body);
  });
}
