/**
 * The embedded store's driver: one read-write connection and one read-only connection to the same
 * file. SQLite lets one writer work at a time, and Kysely's own SQLite driver queues every query of
 * every request behind whichever transaction holds its single connection: a ten-second import made
 * each point read wait ten seconds. Here a SELECT outside a transaction runs on the reader at once:
 * in WAL mode it reads the last committed state (never a transaction's uncommitted rows), and a write
 * committed before it is always visible to it. Writes and transactions keep the writer to themselves,
 * one at a time, as before.
 */
import {
  CompiledQuery,
  SelectQueryNode,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';
import { keptUntilWrite } from '../prepared.js';
import type { ReaderResults } from './reader-results.js';

/** Runs one compiled query on a better-sqlite3 connection, as Kysely's SQLite driver does. */
export function run<R>(database: SqliteDatabase, { sql, parameters }: CompiledQuery): QueryResult<R> {
  const statement = database.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return {
    numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
    insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
    rows: [],
  };
}

/** One holder of the writer at a time; the others wait their turn (without blocking the event loop). */
class WriterLock {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves, once the writer is ours, to the function that hands it on. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => turn);
    return acquired;
  }
}

/** A request's connection: it holds the writer only inside a transaction (or `db.connection()`). */
class RoutedConnection implements DatabaseConnection {
  /** the writer's release while this connection holds it */
  release: (() => void) | null = null;

  constructor(private readonly driver: ReadWriteSqliteDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.release) return run<R>(this.driver.writer, query);
    if (SelectQueryNode.is(query.query)) return this.driver.read<R>(query);
    const release = await this.driver.lock.acquire();
    try {
      return run<R>(this.driver.writer, query);
    } finally {
      release();
    }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the embedded store does not stream queries');
  }
}

export class ReadWriteSqliteDriver implements Driver {
  readonly lock = new WriterLock();

  constructor(
    readonly writer: SqliteDatabase,
    readonly reader: SqliteDatabase,
    private readonly readerResults: ReaderResults,
    private readonly onClose: () => void,
  ) {}

  /** A SELECT outside a transaction: on the reader, or from its kept results (reader-results.ts). */
  read<R>(query: CompiledQuery): QueryResult<R> {
    if (!keptUntilWrite.has(query.sql)) return run<R>(this.reader, query);
    return this.readerResults.read(query.sql, query.parameters, () => run<R>(this.reader, query));
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this);
  }

  /**
   * BEGIN IMMEDIATE takes SQLite's write lock at once, waiting up to busy_timeout for another
   * process's writer; a deferred BEGIN would read first and then fail with SQLITE_BUSY on its
   * first write if another process wrote meanwhile.
   */
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const routed = connection as RoutedConnection;
    routed.release = await this.lock.acquire();
    try {
      run(this.writer, CompiledQuery.raw('begin immediate'));
    } catch (error) {
      routed.release();
      routed.release = null;
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    routed.release?.();
    routed.release = null;
  }

  async destroy(): Promise<void> {
    this.onClose();
  }
}
