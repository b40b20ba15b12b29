/**
 * The embedded store's driver: one read-write connection and one read-only connection to the same
 * file. SQLite lets one writer work at a time, and Kysely's own SQLite driver queues every query of
 * every request behind whichever transaction holds its single connection: a ten-second import made
 * each point read wait ten seconds. Here a SELECT outside a transaction runs on the reader at once:
 * in WAL mode it reads the last committed state (never a transaction's uncommitted rows), and a write
 * committed before it is always visible to it. Writes and transactions keep the writer to themselves,
 * one at a time, as before, and those that come together share one commit (group-commit.ts).
 */
import {
  CompiledQuery,
  DeleteQueryNode,
  InsertQueryNode,
  SelectQueryNode,
  UpdateQueryNode,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';
import type { Db } from '../schema.js';
import { CommitGroups } from './group-commit.js';
import { keptUntilWrite, type ReaderResults } from './reader-results.js';

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

/** An INSERT, UPDATE or DELETE: what a commit may take in with other writes (a pragma or DDL may not). */
export const isWrite = ({ query }: CompiledQuery) => InsertQueryNode.is(query) || UpdateQueryNode.is(query) || DeleteQueryNode.is(query);

/** One holder of the writer at a time; the others wait their turn (without blocking the event loop). */
class WriterLock {
  #tail: Promise<void> = Promise.resolve();
  /** the holder and those waiting */
  #count = 0;
  #held = false;

  /** whether a holder has the writer now (a transaction between its begin and its end), not only waits for it */
  get held(): boolean {
    return this.#held;
  }

  /** @param onIdle called when the writer is handed on and nobody waits for it */
  constructor(private readonly onIdle: () => void) {}

  /** Resolves, once the writer is ours, to the function that hands it on (once; later calls do nothing). */
  acquire(): Promise<() => void> {
    this.#count += 1;
    let handOn!: () => void;
    const turn = new Promise<void>((resolve) => (handOn = resolve));
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#held = false;
      this.#count -= 1;
      handOn();
      if (this.#count === 0) this.onIdle();
    };
    const acquired = this.#tail.then(() => {
      this.#held = true;
      return release;
    });
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
    const answered = this.driver.runWithoutTurn<R>(query, this.release !== null);
    if (answered) return answered;
    const release = await this.driver.lock.acquire();
    try {
      if (!isWrite(query)) {
        // Anything else (a pragma, DDL) runs on its own, outside the group's transaction.
        this.driver.groups.commitOpen();
        return run<R>(this.driver.writer, query);
      }
      return await this.#writeInGroup<R>(query, release);
    } finally {
      release();
    }
  }

  /** A write on its own: a member of the group commit like a transaction, answered once committed. */
  #writeInGroup<R>(query: CompiledQuery, release: () => void): Promise<QueryResult<R>> {
    const { groups } = this.driver;
    groups.begin();
    let result: QueryResult<R>;
    try {
      result = run<R>(this.driver.writer, query);
    } catch (error) {
      groups.undo(error);
      throw error;
    }
    const committed = groups.end();
    // the writer is handed on before waiting: the group commits once nobody waits for it
    release();
    return committed.then(() => result);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the embedded store does not stream queries');
  }
}

export class ReadWriteSqliteDriver implements Driver {
  readonly lock = new WriterLock(() => this.groups.writerIdle());
  readonly groups: CommitGroups;

  constructor(
    readonly writer: SqliteDatabase,
    readonly reader: SqliteDatabase,
    private readonly readerResults: ReaderResults,
    inTransaction: () => boolean,
    private readonly onClose: () => void,
  ) {
    this.groups = new CommitGroups({ writer, inTransaction, acquire: () => this.lock.acquire(), run });
  }

  /**
   * A query that needs no turn at the writer, run now: anything of the transaction holding the writer
   * (`holdsWriter`) on it, a SELECT outside one on the reader. undefined for the rest: a write outside a
   * transaction (the group commit) and anything else (a pragma, DDL) wait for the writer.
   */
  runWithoutTurn<R>(query: CompiledQuery, holdsWriter: boolean): QueryResult<R> | undefined {
    if (holdsWriter) return run<R>(this.writer, query);
    return SelectQueryNode.is(query.query) ? this.read<R>(query) : undefined;
  }

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
   * A transaction is a savepoint in the group commit (group-commit.ts), whose BEGIN IMMEDIATE takes
   * SQLite's write lock at once, waiting up to busy_timeout for another process's writer; a deferred
   * BEGIN would read first and then fail with SQLITE_BUSY on its first write if another process wrote meanwhile.
   */
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const routed = connection as RoutedConnection;
    routed.release = await this.lock.acquire();
    try {
      this.groups.begin();
    } catch (error) {
      routed.release();
      routed.release = null;
      throw error;
    }
  }

  /** Hands the writer on once the savepoint is released, then waits for the group's commit. */
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    const committed = this.groups.end();
    routed.release?.();
    routed.release = null;
    await committed;
  }

  /** Undoes the transaction's savepoint; after a failed group commit there is nothing left to undo. */
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    if (routed.release) this.groups.undo(new Error('a write of the same commit failed, and SQLite rolled the commit back'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    routed.release?.();
    routed.release = null;
  }

  async destroy(): Promise<void> {
    await this.groups.flush();
    this.onClose();
  }
}

/** The embedded store's drivers, by the adapter of their Kysely instance, which its transactions share. */
const driversByAdapter = new WeakMap<DialectAdapter, ReadWriteSqliteDriver>();

/** Lets runAtOnce find the driver of the Kysely instance whose adapter this is. */
export function registerDriver(adapter: DialectAdapter, driver: ReadWriteSqliteDriver): void {
  driversByAdapter.set(adapter, driver);
}

/**
 * Runs a compiled query as RoutedConnection would where it needs no turn at the writer
 * (`runWithoutTurn`), without Kysely's executor around it. Kysely reaches the same call after some ten
 * promise turns of its executor, its connection provider and the connection, ~5 µs a statement, and a
 * save runs eight (prepared.ts calls this first). undefined where it must go Kysely's way: another
 * dialect, or a query that waits for the writer.
 */
export function runAtOnce<R>(db: Db, query: CompiledQuery): QueryResult<R> | undefined {
  const driver = driversByAdapter.get(db.getExecutor().adapter);
  if (!driver) return undefined;
  // A transaction holds the writer from its begin to its end, and no other holder runs meanwhile. (A
  // transaction's object used after its end, which no caller does, would run in whichever holds it then.)
  if (db.isTransaction && !driver.lock.held) return undefined;
  return driver.runWithoutTurn<R>(query, db.isTransaction);
}
