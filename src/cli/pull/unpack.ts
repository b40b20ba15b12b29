/**
 * Reads a .tar.gz export into memory, refusing anything that could write outside the target
 * directory or that is not one of the format's own files: the archive comes over the network, so it
 * is untrusted input. Each member's name is checked before its bytes are read, and the whole archive
 * before a single file is written.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { byteCount } from '../bounded-body.js';
import { outsideLayout, type FileLayout } from './file-layout.js';

export interface PulledFile {
  /** relative, with forward slashes */
  name: string;
  content: Buffer;
}

/** A tar header's size: counted with the files' bytes, so a bomb of empty members is bounded too. */
const HEADER_BYTES = 512;

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

function checkType(header: Header): 'file' | 'directory' {
  if (header.type !== 'file' && header.type !== 'directory') {
    throw new Error(`refused archive member "${header.name}": it is a ${header.type ?? 'special entry'}, not a regular file or directory`);
  }
  return header.type;
}

/** The member's safe relative name, or the reason it is refused: its kind, its path, then the layout. */
function checkMember(header: Header, layout: FileLayout): string {
  const kind = checkType(header);
  const name = safeMemberName(header.name);
  const outside = outsideLayout(layout, name, kind);
  if (outside) throw new Error(`refused archive member "${header.name}": ${outside}`);
  return name;
}

/**
 * The regular files of a gzip-compressed tar, in archive order (directories are implied by the names),
 * each one of `layout`'s; refused when the files hold more than `maxBytes` in all.
 */
export async function unpackTarGz(archive: Buffer, layout: FileLayout, maxBytes: number): Promise<PulledFile[]> {
  const files: PulledFile[] = [];
  let total = 0;
  let refusal: Error | undefined;
  const reader = extract();
  const refuse = (error: Error) => {
    refusal ??= error;
    reader.destroy(error);
  };
  const tooLarge = () => new Error(`refused the archive: its files hold more than ${byteCount(maxBytes)} bytes (--max-bytes)`);
  reader.on('entry', (header, stream, next) => {
    // Destroying the reader errors the member's stream too; the refusal is reported once, below.
    stream.on('error', () => {});
    try {
      const name = checkMember(header, layout);
      total += HEADER_BYTES;
      if (total > maxBytes) throw tooLarge();
      const chunks: Buffer[] = [];
      stream.on('data', (data) => {
        const chunk = data as Buffer;
        total += chunk.length;
        if (total > maxBytes) return refuse(tooLarge());
        chunks.push(chunk);
      });
      stream.on('end', () => {
        if (header.type === 'file') files.push({ name, content: Buffer.concat(chunks) });
        next();
      });
    } catch (error) {
      refuse(error as Error);
    }
  });
  try {
    await pipeline(Readable.from([archive]), createGunzip(), reader);
  } catch (error) {
    throw refusal ?? new Error(`the archive cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return files;
}
