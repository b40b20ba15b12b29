/**
 * Kysely's driver for node-postgres, pipelined: BEGIN's answer awaited with the first statement's, and a
 * write's statements sent without Kysely's executor, the read with the bump.
 *
 * Kysely's own driver awaits BEGIN's answer before the transaction's first statement is sent: a
 * round trip that carries nothing, paid by every write (a save is BEGIN, the version's bump, its
 * read, the save and COMMIT). Here the pool's clients pipeline (node-postgres `pipeline: true`:
 * a query is written at once, not after the one before it is answered), BEGIN is written when the
 * transaction starts and its answer is awaited with the first statement's, so the two share one
 * round trip. Each keeps its own Sync, so the server answers each alone. Beyond BEGIN, a statement
 * goes out before the one before it is answered only where its caller sends it so, because it needs
 * nothing from that answer (postgres-writes.ts bumpAndRead); the rest is awaited statement by statement.
 *
 * A transaction bound to its connection (bindTransaction) sends its prepared statements (store/prepared.ts)
 * straight to it, without Kysely's executor around each (some ten promise turns): written at once, in the
 * order they are called, so that a statement called before the answer of the one before it goes out
 * with it (postgres-writes.ts: a write's read sent with the bump that takes the project's lock).
 *
 * The prepared queries run as named statements unless told otherwise: the server parses and plans
 * each once per connection.
 */
import { CompiledQuery, type DatabaseConnection, type DialectAdapter, type Driver, type QueryResult, type Transaction, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import { namedStatements } from '../named-statements.js';

export interface PipelinedDriverOptions {
  /** false: every query runs unnamed (behind PgBouncer's transaction pooling) */
  namedStatements: boolean;
}

export class PipelinedPostgresDriver implements Driver {
  readonly #pool: pg.Pool;
  readonly #options: PipelinedDriverOptions;
  readonly #connections = new WeakMap<pg.PoolClient, PipelinedConnection>();

  /** `pool`: created with `pipeline: true` (connect.ts). */
  constructor(pool: pg.Pool, options: PipelinedDriverOptions) {
    this.#pool = pool;
    this.#options = options;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.#pool.connect();
    let connection = this.#connections.get(client);
    if (!connection) {
      connection = new PipelinedConnection(client, this.#options.namedStatements);
      this.#connections.set(client, connection);
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    (connection as PipelinedConnection).begin(beginStatement(settings));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).end('commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).end('rollback');
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoted(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoted(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoted(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PipelinedConnection).release();
  }

  async destroy(): Promise<void> {
    await this.#pool.end();
  }
}

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

function beginStatement({ isolationLevel, accessMode }: TransactionSettings): string {
  if (!isolationLevel && !accessMode) return 'begin';
  return ['start transaction', isolationLevel && `isolation level ${isolationLevel}`, accessMode].filter(Boolean).join(' ');
}

const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** Asked through Kysely, a pipelined connection answers it itself with its own object (bindTransaction). */
const WHICH_CONNECTION = CompiledQuery.raw('-- which connection');

class PipelinedConnection implements DatabaseConnection {
  readonly #client: pg.PoolClient;
  readonly #named: boolean;
  /** the transaction's BEGIN, written but not yet awaited */
  #begun: Promise<unknown> | undefined;
  /** which of this connection's transactions is open (0: none), so that a binding outlives no transaction */
  #transaction = 0;
  #transactions = 0;

  constructor(client: pg.PoolClient, named: boolean) {
    this.#client = client;
    this.#named = named;
  }

  /** Writes BEGIN now; its answer is awaited with the next statement's. */
  begin(statement: string): void {
    this.#transaction = ++this.#transactions;
    this.#begun = this.#client.query(statement);
  }

  /** Ends the open transaction (`commit` or `rollback`): a statement of a binding to it goes Kysely's way from now on. */
  async end(statement: 'commit' | 'rollback'): Promise<void> {
    this.#transaction = 0;
    await this.executeQuery(CompiledQuery.raw(statement));
  }

  /** Whether `transaction` (a number bindTransaction read) is still this connection's open one. */
  holds(transaction: number): boolean {
    return transaction !== 0 && transaction === this.#transaction;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (compiled === WHICH_CONNECTION) return { rows: [{ connection: this, transaction: this.#transaction } as R] };
    const begun = this.#begun;
    this.#begun = undefined;
    const name = this.#named ? namedStatements.get(compiled.sql) : undefined;
    const running = this.#client.query<R & pg.QueryResultRow>({ text: compiled.sql, values: [...compiled.parameters], ...(name ? { name } : {}) });
    if (begun) {
      // BEGIN fails only with its connection, which then fails the statement too: its error is the one to report.
      running.catch(() => {});
      await begun;
    }
    const { command, rowCount, rows } = await running;
    return { numAffectedRows: COUNTED_COMMANDS.has(command) ? BigInt(rowCount ?? 0) : undefined, rows: rows ?? [] };
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used on PostgreSQL: read in pages instead');
  }

  release(): void {
    this.#begun = undefined;
    this.#transaction = 0;
    this.#client.release();
  }
}

/** The adapters of Kysely instances on a PipelinedPostgresDriver (connect.ts): their transactions can be bound. */
const pipelinedAdapters = new WeakSet<DialectAdapter>();

export function markPipelined(adapter: DialectAdapter): void {
  pipelinedAdapters.add(adapter);
}

interface Binding {
  connection: PipelinedConnection;
  transaction: number;
}

const bindings = new WeakMap<object, Binding>();

/**
 * Binds a transaction on a PipelinedPostgresDriver to its connection, which Kysely keeps to itself,
 * so that runOnBoundConnection can reach it: one pass through Kysely's executor, answered by the
 * connection without a round trip. undefined (nothing to wait for) on any other store.
 */
export function bindTransaction<DB>(trx: Transaction<DB>): Promise<void> | undefined {
  if (!pipelinedAdapters.has(trx.getExecutor().adapter)) return undefined;
  return trx.executeQuery<Binding>(WHICH_CONNECTION).then(({ rows: [binding] }) => {
    if (binding) bindings.set(trx, binding);
  });
}

/**
 * Runs a compiled query on the connection of `db`, a bound transaction, straight away; undefined where
 * it must go Kysely's way: not a bound transaction, or one that has ended (Kysely then refuses it).
 */
export function runOnBoundConnection<R>(db: object, query: CompiledQuery): Promise<QueryResult<R>> | undefined {
  const binding = bindings.get(db);
  if (!binding?.connection.holds(binding.transaction)) return undefined;
  return binding.connection.executeQuery<R>(query);
}
