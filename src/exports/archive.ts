/** A gzip-compressed tar archive written one file at a time. */
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';
import { push } from './output.js';

export interface ArchiveWriter {
  /** Adds a file of `size` bytes, which `write` writes into the stream it is given (and no more). */
  add(name: string, size: number, write: (file: Writable) => Promise<void>): Promise<void>;
  finish(): Promise<void>;
}

/**
 * Streams a .tar.gz into `out`. gzip level 1: about 4× faster than the default level 6 for ~15 %
 * more bytes, measured on this project's exports. Every file gets the same `mtime`, so equal
 * content gives equal bytes.
 */
export function archiveWriter(out: Writable, mtime: Date): ArchiveWriter {
  const pack = tarPack();
  const done = pipeline(pack, createGzip({ level: 1 }), out);
  // A failed pipeline is reported by finish(); until then, keep it from being an unhandled rejection.
  done.catch(() => {});
  return {
    async add(name, size, write) {
      let settle!: (error?: Error | null) => void;
      const finished = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
      // Kept from being an unhandled rejection while `write` runs; awaited below.
      finished.catch(() => {});
      // A streamx writable: write() returning false, 'drain', 'close' and `destroyed`, all push() uses.
      const file = pack.entry({ name, size, mtime, mode: 0o644, uid: 0, gid: 0, uname: '', gname: '' }, (error) => settle(error)) as unknown as Writable;
      // A client that goes away destroys the pipeline, and with it this entry: the callback above
      // reports that; without a listener the entry's 'error' event would crash the process.
      file.on('error', () => {});
      await write(file);
      file.end();
      await finished;
    },
    finish: async () => {
      pack.finalize();
      await done;
    },
  };
}

/** Adds a file whose whole content is `text`. */
export function addText(archive: ArchiveWriter, name: string, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  return archive.add(name, bytes.length, (file) => push(file, bytes));
}
