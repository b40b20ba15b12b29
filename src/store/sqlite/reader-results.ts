/**
 * Results of the hottest reads (every API request's key check and project access check) kept on
 * the embedded store until the store file changes. SQLite's `PRAGMA data_version` changes on the
 * reader whenever any other connection, of this process or another (the CLI revoking a key), has
 * committed to the file since the reader last looked: asked before each such read, it empties the
 * results at the first read after any write, so a revocation or a changed role is seen at once.
 * A point read then costs one pragma instead of two joined queries. Only queries marked
 * `keptUntilWrite` (prepared.ts) are kept: their SQL has no clock or random values among its parameters.
 *
 * The pragma is asked once per turn of the event loop, not once per read: it starts a read
 * transaction (the WAL's shared-memory locks), and a point read's two kept reads made it ~6 % of the
 * request's CPU. The answer stays right within a turn: a request whose bytes are read in this turn
 * was sent before the turn began (epoll reported its socket), so any commit another process finished
 * before the request was sent is seen by a pragma asked in this turn; and this process's own writer
 * runs nothing without `writerRan()` being called, which makes the next read ask again.
 */
import type { QueryResult } from 'kysely';

/** Enough for every key and (user, project) pair of a busy server; past it, everything is dropped at once. */
const MAX_RESULTS = 10_000;

export class ReaderResults {
  #version: number | undefined;
  /** the version was asked in this turn of the event loop, and the writer ran nothing since */
  #checked = false;
  readonly #results = new Map<string, readonly Record<string, unknown>[]>();
  readonly #turnEnded = () => {
    this.#checked = false;
  };

  /** `dataVersion` runs `PRAGMA data_version` on the connection the reads run on. */
  constructor(private readonly dataVersion: () => number) {}

  /** This process's writer ran a statement (maybe a commit): the next read asks the version again. */
  writerRan(): void {
    this.#checked = false;
  }

  /** The rows of `sql` with `parameters`, from the store (`run`) unless kept since the last write. */
  read<R>(sql: string, parameters: readonly unknown[], run: () => QueryResult<R>): QueryResult<R> {
    if (!this.#checked) {
      const version = this.dataVersion();
      if (version !== this.#version) {
        this.#results.clear();
        this.#version = version;
      }
      this.#checked = true;
      setImmediate(this.#turnEnded);
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
