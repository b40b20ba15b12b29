/**
 * Reads that change only when their project's content changes, kept in memory per project content
 * version. Every write to a project's content bumps its version first (beginProjectWrite), and every
 * read checks the caller's access, which loads the current version anyway: so a kept value is used
 * only while its version is current, in any number of server processes, and never outlives a write.
 *
 * A value that names the entries it shows also outlives the writes that changed only the texts of
 * other entries: the log of entry changes (the one exports read, kept-rows.ts) says, for the versions
 * since the value was kept, which one entry's texts each of them changed, and nothing else. A page of
 * 100 entries stays current through a save to any of the other 1,900 of its project; any other write
 * (a name, a place, a new or deleted entry, the languages), a gap in the log, or a change to an entry
 * the value shows, and it is read again.
 *
 * Bounded by an estimate of its size (least recently used values go first); one per app and kind of
 * read (content-caches.ts).
 */
import { entryChangesSince, KEPT_VERSIONS_WINDOW } from '../../store/repositories/exports.js';
import type { Db } from '../../store/schema.js';

interface Kept {
  projectId: string;
  version: number;
  value: unknown;
  bytes: number;
  /** the entries the value shows, when nothing else of the project's content is in it */
  shows: ReadonlySet<string> | undefined;
}

export class ContentCache {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  /** `largestShare`: the largest part of `maxBytes` one value may take (larger values are not kept). */
  constructor(private readonly maxBytes: number, private readonly largestShare = 1 / 8) {}

  /** The value kept under `key` for this version of the project, if any. */
  get<T>(key: string, projectId: string, version: number): T | undefined {
    return this.exactly<T>(key, this.kept.get(key), projectId, version);
  }

  /**
   * The value kept under `key` for this version of the project or, when it shows only some entries
   * (`shows` given to `set`), for an earlier version since which no write changed anything it shows.
   */
  async current<T>(db: Db, key: string, projectId: string, version: number): Promise<T | undefined> {
    const kept = this.kept.get(key);
    if (!kept?.shows || kept.projectId !== projectId || kept.version >= version || version - kept.version > KEPT_VERSIONS_WINDOW) {
      return this.exactly<T>(key, kept, projectId, version);
    }
    const changed = await entryChangesSince(db, projectId, kept.version, version);
    // Replaced or dropped while the log was read: what is there now is for get to judge.
    if (this.kept.get(key) !== kept) return this.get<T>(key, projectId, version);
    if (!changed || changed.some((entryId) => kept.shows!.has(entryId))) {
      this.remove(key, kept);
      return undefined;
    }
    kept.version = version;
    return this.used(key, kept);
  }

  /** Keeps `value` (about `bytes` large) for this version of the project; `shows`: the only entries it shows, if so. */
  set(key: string, projectId: string, version: number, value: unknown, bytes: number, shows?: Iterable<string>): void {
    const previous = this.kept.get(key);
    if (previous) this.remove(key, previous);
    if (bytes > this.maxBytes * this.largestShare) return; // one value may not push out most of the others
    this.kept.set(key, { projectId, version, value, bytes, shows: shows && new Set(shows) });
    this.bytes += bytes;
    for (const [oldestKey, oldest] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldestKey, oldest);
    }
  }

  /** The value kept under `key` for the project at whatever version it was kept, with that version (for a caller that catches it up itself). */
  latest<T>(key: string, projectId: string): { version: number; value: T } | undefined {
    const kept = this.kept.get(key);
    return kept && kept.projectId === projectId ? { version: kept.version, value: this.used<T>(key, kept) } : undefined;
  }

  /** The project a key's value last belonged to (for ids that never change project, e.g. an entry's). */
  projectOf(key: string): string | undefined {
    return this.kept.get(key)?.projectId;
  }

  /** `kept` (the value under `key`) if it is for this version of the project; dropped if it is for another. */
  private exactly<T>(key: string, kept: Kept | undefined, projectId: string, version: number): T | undefined {
    if (!kept) return undefined;
    if (kept.projectId !== projectId || kept.version !== version) {
      this.remove(key, kept);
      return undefined;
    }
    return this.used(key, kept);
  }

  /** Returns the value, most recently used last (Map keeps insertion order). */
  private used<T>(key: string, kept: Kept): T {
    this.kept.delete(key);
    this.kept.set(key, kept);
    return kept.value as T;
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
