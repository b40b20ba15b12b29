/**
 * Reads that change only when their project's content changes, kept in memory per project content
 * version. Every write to a project's content bumps its version first (beginProjectWrite), and every
 * read checks the caller's access, which loads the current version anyway: so a kept value is used
 * only while its version is current, in any number of server processes, and never outlives a write.
 *
 * Bounded by an estimate of its size (least recently used values go first); per process.
 */

interface Kept {
  projectId: string;
  version: number;
  value: unknown;
  bytes: number;
}

export class ContentCache {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The value kept under `key` for this version of the project, if any. */
  get<T>(key: string, projectId: string, version: number): T | undefined {
    const kept = this.kept.get(key);
    if (!kept) return undefined;
    if (kept.projectId !== projectId || kept.version !== version) {
      this.remove(key, kept);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.kept.delete(key);
    this.kept.set(key, kept);
    return kept.value as T;
  }

  /** Keeps `value` (about `bytes` large) for this version of the project. */
  set(key: string, projectId: string, version: number, value: unknown, bytes: number): void {
    const previous = this.kept.get(key);
    if (previous) this.remove(key, previous);
    if (bytes > this.maxBytes / 8) return; // one value may not push out most of the others
    this.kept.set(key, { projectId, version, value, bytes });
    this.bytes += bytes;
    for (const [oldestKey, oldest] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldestKey, oldest);
    }
  }

  /** The project a key's value last belonged to (for ids that never change project, e.g. an entry's). */
  projectOf(key: string): string | undefined {
    return this.kept.get(key)?.projectId;
  }

  private remove(key: string, kept: Kept): void {
    this.kept.delete(key);
    this.bytes -= kept.bytes;
  }
}

/** The size of a JSON-shaped value, roughly as its JSON text (strings count twice: UTF-16 in memory). */
export function approximateBytes(value: unknown): number {
  return JSON.stringify(value).length * 2;
}

/** The cache of entry reads (pages and single entries), shared by every store of the process: ids are globally unique. */
export const entryReads = new ContentCache(32 * 1024 * 1024);
