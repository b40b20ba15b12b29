/**
 * Where an export keeps the bytes of one language while it reads the project: in memory while they
 * are few, then in a temporary file. An export reads the texts entry by entry (all languages of an
 * entry at once, the one cheap order to read them in) but writes them language by language; the
 * spools bridge the two without holding the project in memory, and let the read transaction end
 * before the first byte goes to a client, however slow that client is.
 */
import { open, mkdtemp, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { collectYoungGarbage } from '../collect-garbage.js';
import { AppError } from '../errors.js';
import { push } from './output.js';

/** The chunks text is encoded into. */
const CHUNK = 64 * 1024;
/** Characters gathered before they are encoded. */
const PENDING = 8192;
/** The size of the pieces read back from a file. */
const PIECE = 1024 * 1024;
/** Bytes an export keeps in memory across all its spools before they go to files. */
const IN_MEMORY = 4 * 1024 * 1024;
/** Chunks an export keeps for reuse once their bytes are in a file. */
const FREE_CHUNKS = 32;
/** Bytes read back from files between two collections of the young generation. */
const READ_BETWEEN_COLLECTIONS = 8 * 1024 * 1024;

export interface SpoolOptions {
  /** bytes kept in memory across the set's spools before they go to files */
  inMemoryBytes?: number;
  /** where the set's temporary directory is made (the system's temporary directory by default) */
  under?: string;
}

/** The temporary files of one export, removed together when it ends (however it ends). */
export class SpoolSet {
  readonly #inMemoryBytes: number;
  readonly #under: string | undefined;
  #directory: Promise<string> | null = null;
  #inMemory = 0;
  #files = 0;
  readonly #spools: Spool[] = [];
  /**
   * Chunks whose bytes went to a file, to be filled again: a large export encodes tens of megabytes,
   * and chunks made anew each time lay outside V8's heap as garbage that it collected only at its
   * external memory limit (~10–15 MB of them all through a 100,000-entry export).
   */
  readonly #freeChunks: Buffer[] = [];
  #readSinceCollecting = 0;

  constructor(options: SpoolOptions = {}) {
    this.#inMemoryBytes = options.inMemoryBytes ?? IN_MEMORY;
    this.#under = options.under;
  }

  spool(): Spool {
    const spool = new Spool(this);
    this.#spools.push(spool);
    return spool;
  }

  /** A chunk to fill: one whose bytes are in a file already, or a new one. */
  takeChunk(): Buffer {
    return this.#freeChunks.pop() ?? Buffer.allocUnsafe(CHUNK);
  }

  /** Takes back, for reuse, the whole chunks among `written` (buffers whose bytes are in a file and that nothing else holds). */
  recycle(written: readonly Buffer[]): void {
    for (const buffer of written) {
      if (this.#freeChunks.length >= FREE_CHUNKS) return;
      if (buffer.byteOffset === 0 && buffer.buffer.byteLength === CHUNK) this.#freeChunks.push(Buffer.from(buffer.buffer, 0, CHUNK));
    }
  }

  /**
   * Counts bytes read back from the files, and collects the young generation every few megabytes:
   * the pieces sent are garbage outside the heap, which V8 would otherwise leave until its external
   * memory limit (~25 MB of them at the end of a large export).
   */
  readBack(bytes: number): void {
    this.#readSinceCollecting += bytes;
    if (this.#readSinceCollecting < READ_BETWEEN_COLLECTIONS) return;
    this.#readSinceCollecting = 0;
    collectYoungGarbage();
  }

  /** Whether `bytes` more may stay in memory (counted against the whole export). */
  reserve(bytes: number): boolean {
    if (this.#inMemory + bytes > this.#inMemoryBytes) return false;
    this.#inMemory += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#inMemory -= bytes;
  }

  /** A new file in the export's own temporary directory (made on first use: small exports never touch the disk). */
  async createFile(): Promise<FileHandle> {
    this.#directory ??= mkdtemp(join(this.#under ?? tmpdir(), 'tolk-export-'));
    // The name is taken before any await: spools may create their files at the same time.
    const name = `spool-${(this.#files += 1)}`;
    const directory = this.#directory;
    return withDiskErrors(async () => open(join(await directory, name), 'w+'));
  }

  /** Closes and removes every file; safe to call more than once. */
  async dispose(): Promise<void> {
    await Promise.allSettled(this.#spools.map((spool) => spool.close()));
    const directory = this.#directory;
    this.#directory = null;
    const path = await directory?.catch(() => null);
    if (path) await rm(path, { recursive: true, force: true });
  }
}

export class Spool {
  /** the chunk being filled, and how much of it is */
  #chunk: Buffer;
  #used = 0;
  /** text written but not yet encoded */
  #pending = '';
  /** filled chunks, not yet stored */
  #sealed: Buffer[] = [];
  #written = 0;
  #memory: Buffer[] = [];
  #memoryBytes = 0;
  #file: FileHandle | null = null;
  #fileBytes = 0;
  #storing: Promise<void> = Promise.resolve();

  constructor(private readonly set: SpoolSet) {
    this.#chunk = set.takeChunk();
  }

  /**
   * Appends text. A few kilobytes of it are gathered in a string, then encoded into the chunk being
   * filled: one encoding per member cost five times as much, and a long-lived rope of small strings
   * (flattened at the end) as much again in garbage collection as the rest of the export.
   */
  write(text: string): void {
    this.#pending += text;
    if (this.#pending.length >= PENDING) this.#encodePending();
  }

  #encodePending(): void {
    const text = this.#pending;
    if (text === '') return;
    this.#pending = '';
    // A UTF-16 code unit never takes more than 3 bytes in UTF-8.
    if (text.length * 3 > CHUNK - this.#used) {
      this.#seal();
      if (text.length * 3 > CHUNK) {
        const bytes = Buffer.from(text, 'utf8');
        this.#sealed.push(bytes);
        this.#written += bytes.length;
        return;
      }
    }
    const bytes = this.#chunk.write(text, this.#used);
    this.#used += bytes;
    this.#written += bytes;
  }

  /** Stores the filled chunks: in memory within the export's allowance, past it in the file. Call it between batches. */
  async settle(): Promise<void> {
    if (this.#sealed.length > 0) await this.#store();
  }

  /** The number of bytes written so far. */
  offset(): number {
    return this.#written + Buffer.byteLength(this.#pending, 'utf8');
  }

  /** Every byte written so far, stored. */
  async size(): Promise<number> {
    this.#seal();
    await this.#store();
    return this.#written;
  }

  /** Writes bytes [start, end) of the spool into `out` (all of them by default), with backpressure. */
  async copyTo(out: Writable, start = 0, end?: number): Promise<void> {
    const last = Math.min(end ?? Infinity, await this.size());
    let offset = start;
    // The file holds the first bytes, memory the rest.
    while (offset < last && offset < this.#fileBytes) {
      const length = Math.min(PIECE, last - offset, this.#fileBytes - offset);
      // A new piece each time: the stream may hold it after push() returns (a kept export keeps it).
      const piece = Buffer.allocUnsafe(length);
      const { bytesRead } = await this.#file!.read(piece, 0, length, offset);
      if (bytesRead !== length) throw new Error('export spool file ended early');
      await push(out, piece);
      offset += length;
      this.set.readBack(length);
    }
    let position = this.#fileBytes;
    for (const buffer of this.#memory) {
      const from = Math.max(offset, position);
      const to = Math.min(last, position + buffer.length);
      if (from < to) await push(out, buffer.subarray(from - position, to - position));
      position += buffer.length;
      if (position >= last) break;
    }
  }

  async close(): Promise<void> {
    this.set.release(this.#memoryBytes);
    this.#memory = [];
    this.#memoryBytes = 0;
    const file = this.#file;
    this.#file = null;
    await file?.close();
  }

  /** Ends the chunk being filled (a mostly empty one is copied, so as not to keep all of it). */
  #seal(): void {
    this.#encodePending();
    if (this.#used === 0) return;
    const filled = this.#chunk.subarray(0, this.#used);
    this.#sealed.push(this.#used < CHUNK / 2 ? Buffer.from(filled) : filled);
    if (this.#used < CHUNK / 2) this.#used = 0;
    else [this.#chunk, this.#used] = [this.set.takeChunk(), 0];
  }

  /** One store at a time, in order. */
  #store(): Promise<void> {
    this.#storing = this.#storing.then(() => this.#storeSealed());
    return this.#storing;
  }

  async #storeSealed(): Promise<void> {
    const sealed = this.#sealed;
    if (sealed.length === 0) return;
    this.#sealed = [];
    const bytes = sealed.reduce((sum, buffer) => sum + buffer.length, 0);
    if (this.#file === null && this.set.reserve(bytes)) {
      this.#memory.push(...sealed);
      this.#memoryBytes += bytes;
      return;
    }
    if (this.#file === null) {
      this.#file = await this.set.createFile();
      // What memory held goes first into the file, so the file is always the spool's beginning.
      sealed.unshift(...this.#memory);
      this.set.release(this.#memoryBytes);
      this.#memory = [];
      this.#memoryBytes = 0;
    }
    await this.#append(sealed);
    this.set.recycle(sealed);
  }

  /** Appends the buffers to the file: one system call for all of them, most of the time. */
  async #append(buffers: Buffer[]): Promise<void> {
    let pending = buffers;
    while (pending.length > 0) {
      const { bytesWritten } = await withDiskErrors(() => this.#file!.writev(pending, this.#fileBytes));
      this.#fileBytes += bytesWritten;
      pending = remainderAfter(pending, bytesWritten);
    }
  }

}

/** What of `buffers` is left once their first `bytes` bytes are written (a short write). */
function remainderAfter(buffers: Buffer[], bytes: number): Buffer[] {
  let skipped = bytes;
  for (let i = 0; i < buffers.length; i += 1) {
    const buffer = buffers[i]!;
    if (skipped < buffer.length) return [buffer.subarray(skipped), ...buffers.slice(i + 1)];
    skipped -= buffer.length;
  }
  return [];
}

/** What the temporary directory may refuse: the server's condition, not the request's fault. */
const DISK_ERRORS: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EMFILE', 'ENFILE', 'ENOENT']);

/** Runs a file operation; a full or unwritable temporary directory refuses the export with 503 (retry later). */
async function withDiskErrors<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined || !DISK_ERRORS.has(code)) throw error;
    throw new AppError('ERR_UNAVAILABLE', `no room for the export's temporary files (${code}); the server's TMPDIR needs space`);
  }
}
