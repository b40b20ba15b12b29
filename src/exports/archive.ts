/** A gzip-compressed tar archive written one file at a time. */
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';

export interface ArchiveWriter {
  add(name: string, content: string): Promise<void>;
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
    add: (name, content) =>
      new Promise((resolve, reject) => {
        const data = Buffer.from(content, 'utf8');
        const entry = pack.entry({ name, size: data.length, mtime, mode: 0o644, uid: 0, gid: 0, uname: '', gname: '' }, data, (error) =>
          error ? reject(error) : resolve(),
        );
        // A client that goes away destroys the pipeline, and with it this entry: the callback above
        // reports that; without a listener the entry's 'error' event would crash the process.
        entry.on('error', () => {});
      }),
    finish: async () => {
      pack.finalize();
      await done;
    },
  };
}
