/**
 * Reads a .tar.gz export into memory, refusing anything that could write outside the target
 * directory: the archive comes over the network, so it is untrusted input. The whole archive is
 * checked before a single file is written.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract, type Header } from 'tar-stream';

export interface PulledFile {
  /** relative, with forward slashes */
  name: string;
  content: Buffer;
}

/** Far above any real export; stops a gzip bomb from filling memory. */
const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;

/** The member's name as a safe relative path, or a reason it is refused. */
function safeMemberName(name: string): string {
  const refuse = (why: string) => new Error(`refused archive member "${name}": ${why}`);
  if (name.includes('\0')) throw refuse('it contains a NUL byte');
  if (name.includes('\\')) throw refuse('it contains a backslash');
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) throw refuse('it is an absolute path');
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw refuse('it contains a ".." segment');
  if (segments.length === 0) throw refuse('it has no name');
  return segments.join('/');
}

function checkType(header: Header): void {
  if (header.type !== 'file' && header.type !== 'directory') {
    throw new Error(`refused archive member "${header.name}": it is a ${header.type ?? 'special entry'}, not a regular file or directory`);
  }
}

/** The regular files of a gzip-compressed tar, in archive order; directories are implied by the names. */
export async function unpackTarGz(archive: Buffer): Promise<PulledFile[]> {
  const files: PulledFile[] = [];
  let total = 0;
  const reader = extract();
  reader.on('entry', (header, stream, next) => {
    try {
      checkType(header);
      const name = safeMemberName(header.name);
      const chunks: Buffer[] = [];
      stream.on('data', (data) => {
        const chunk = data as Buffer;
        total += chunk.length;
        if (total > MAX_UNPACKED_BYTES) reader.destroy(new Error('the archive unpacks to more than 1 GiB'));
        chunks.push(chunk);
      });
      stream.on('end', () => {
        if (header.type === 'file') files.push({ name, content: Buffer.concat(chunks) });
        next();
      });
    } catch (error) {
      reader.destroy(error as Error);
    }
  });
  try {
    await pipeline(Readable.from([archive]), createGunzip(), reader);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(message.startsWith('refused') ? message : `the archive cannot be read: ${message}`);
  }
  return files;
}
