/**
 * Results of the hottest reads (every API request's key check and project access check) kept on
 * the embedded store until the store file changes. SQLite's `PRAGMA data_version` changes on the
 * reader whenever any other connection, of this process or another (the CLI revoking a key), has
 * committed to the file since the reader last looked: asked before each such read, it empties the
 * results at the first read after any write, so a revocation or a changed role is seen at once.
 * A point read then costs one pragma instead of two joined queries. Only queries marked
 * `keptUntilWrite` (prepared.ts) are kept: their SQL has no clock or random values among its parameters.
 *
 * The pragma is asked before every kept read (it opens a read transaction: ~2 µs on one machine, 5.1–5.8 µs on
 * one where a system call costs ~2.2 µs, two fcntl calls on the -shm file each time). Asked once per turn
 * of the event loop instead, reads were ~6 % faster, but not right: a value taken in the check phase
 * (where the quota counts' commit resumes requests) lives into the next poll phase, whose requests may
 * have been sent after another process's commit. Kept for one microtask drain only, it is right, and
 * measured no faster (bench/ab.mjs, issue 17).
 */
import type { QueryResult } from 'kysely';

/**
 * The SQL texts of prepared queries marked `keptUntilWrite` (prepared.ts): the embedded store keeps their
 * results until the store file next changes.
 */
export const keptUntilWrite = new Set<string>();

/** Enough for every key and (user, project) pair of a busy server; past it, everything is dropped at once. */
const MAX_RESULTS = 10_000;

export class ReaderResults {
  #version: number | undefined;
  readonly #results = new Map<string, readonly Record<string, unknown>[]>();

  /** `dataVersion` runs `PRAGMA data_version` on the connection the reads run on. */
  constructor(private readonly dataVersion: () => number) {}

  /** The rows of `sql` with `parameters`, from the store (`run`) unless kept since the last write. */
  read<R>(sql: string, parameters: readonly unknown[], run: () => QueryResult<R>): QueryResult<R> {
    const version = this.dataVersion();
    if (version !== this.#version) {
      this.#results.clear();
      this.#version = version;
    }
    const key = `${sql}\u0000${JSON.stringify(parameters)}`;
    const kept = this.#results.get(key);
    // Copies: a caller may set a field of the rows it gets, and the next caller must not see it.
    if (kept) return { rows: kept.map((row) => ({ ...row })) as R[] };
    const result = run();
    if (this.#results.size >= MAX_RESULTS) this.#results.clear();
    this.#results.set(key, (result.rows as Record<string, unknown>[]).map((row) => ({ ...row })));
    return result;
  }
}
