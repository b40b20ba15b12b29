/** Embedded store: better-sqlite3 in WAL mode, foreign keys on. */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type DialectAdapter, type Driver, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { Database } from '../schema.js';
import { ReadWriteSqliteDriver, registerDriver } from './read-write-driver.js';
import { createPrivateFile } from './private-file.js';
import { ReaderResults } from './reader-results.js';

/** Distinct SQL texts kept prepared: the API issues a few dozen shapes, so this never evicts in practice. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely prepares every query anew; preparing costs more than running a point read, so keep each
 * distinct SQL text prepared (statements are reusable; queries here never overlap on one statement,
 * as the driver runs one at a time and no query is streamed).
 */
export function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** The file path of a `sqlite:<path>` URL. */
export function sqlitePath(url: string): string {
  const path = url.slice('sqlite:'.length);
  if (path === '' || path === ':memory:') throw new Error('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/tolk.db');
  return path;
}

/**
 * Moves every page of the WAL into the database file and truncates the WAL, before the writer's
 * close. SQLite's own checkpoint on close runs only in the last connection to the file: with any
 * other open (a CLI command, a second server) it leaves the whole WAL behind, and a copy of the
 * database file alone then misses what the WAL holds. Not done (busy: another connection reads an
 * older snapshot) is no error: the WAL stays valid, and the next writer's checkpoints take it in.
 */
function emptyWal(writer: SQLite.Database): void {
  try {
    writer.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // SQLITE_BUSY after busy_timeout: the WAL is left as it was, whole and valid
  }
}

/** Kysely's SQLite dialect (adapter, compiler) over the driver that keeps reads off the writer. */
class ReadWriteSqliteDialect extends SqliteDialect {
  #driver: ReadWriteSqliteDriver | undefined;

  constructor(private readonly writer: SQLite.Database, private readonly reader: SQLite.Database) {
    super({ database: writer });
  }

  override createDriver(): Driver {
    const dataVersion = this.reader.prepare('pragma data_version').pluck();
    const readerResults = new ReaderResults(() => dataVersion.get() as number);
    this.#driver = new ReadWriteSqliteDriver(withStatementCache(this.writer), withStatementCache(this.reader), readerResults, () => this.writer.inTransaction, () => {
      this.reader.close();
      emptyWal(this.writer);
      this.writer.close();
    });
    return this.#driver;
  }

  // Kysely creates the driver, then the adapter: the prepared queries find the driver by the adapter (runAtOnce).
  override createAdapter(): DialectAdapter {
    const adapter = super.createAdapter();
    if (this.#driver) registerDriver(adapter, this.#driver);
    return adapter;
  }
}

/**
 * The size a WAL file is cut back to when it starts over: a large import's commit may make it far
 * longer, and SQLite otherwise keeps the file at its longest (background-checkpoints.ts).
 */
export const WAL_KEPT_BYTES = 64 * 1024 * 1024;

/**
 * Opens `sqlite:<path>` read-write: SELECTs outside a transaction run on a read-only connection,
 * everything else on the writer (read-write-driver.ts).
 */
export function connectSqlite(url: string): Kysely<Database> {
  const path = sqlitePath(url);
  createPrivateFile(path);
  const writer = new SQLite(path);
  writer.pragma('journal_mode = WAL');
  writer.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
  // NORMAL in WAL mode loses nothing on a process crash (only on power loss), at a fraction of FULL's cost.
  writer.pragma('synchronous = NORMAL');
  // 16 MiB of page cache instead of SQLite's default 2,000 KiB: a large import's inserts land on pages
  // all over its indexes, and past the cache each costs a read of the file.
  writer.pragma('cache_size = -16384');
  writer.pragma('foreign_keys = ON');
  // The CLI and the server share the file; wait for the other's write instead of failing.
  writer.pragma('busy_timeout = 5000');
  const reader = new SQLite(path, { readonly: true });
  reader.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new ReadWriteSqliteDialect(writer, reader) });
}

/**
 * `db` with its driver initialized. Kysely's destroy() closes a driver only once a query has
 * initialized it: a connection opened here that nothing queried would outlive the store's close,
 * holding its file open (and a lock on it if it ever read) for as long as the process lives.
 */
export async function initialized(db: Kysely<Database>): Promise<Kysely<Database>> {
  await db.connection().execute(async () => {});
  return db;
}

/**
 * A second, read-only connection for long reads (exports): in WAL mode it reads a consistent
 * snapshot inside its own transaction while the main connection keeps serving writes.
 */
export function connectSqliteReader(url: string, options: { usageFile?: string } = {}): Kysely<Database> {
  const database = new SQLite(sqlitePath(url), { readonly: true, fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  if (options.usageFile) {
    // The daily counts live in their own file (usage-file.ts): a temporary view by the table's name
    // shows them in its place, so that a whole-store inspection reads them joined with the users.
    database.prepare('attach database ? as usage').run(options.usageFile);
    database.exec('create temp view daily_usage as select * from usage.daily_usage');
  }
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
}
