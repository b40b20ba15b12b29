/**
 * The embedded store keeps the daily request counts in a file of their own, `<store>-usage`, beside
 * the main one. Every API request writes its count before it does anything else, and SQLite locks
 * writes per file: in the main file, one long write transaction (a large import, seconds) held up
 * every other request's count, reads included. In a file of its own the count is still one
 * statement under SQLite's lock (exact with any number of processes), and never waits for content.
 * The counts of one turn of the event loop share a commit (turn-commit-driver.ts).
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type Driver } from 'kysely';
import type { Database } from '../schema.js';
import { initialized, sqlitePath, WAL_KEPT_BYTES } from './connect.js';
import { createPrivateFile } from './private-file.js';
import { TurnCommitSqliteDriver } from './turn-commit-driver.js';

/** The usage file of `sqlite:<path>`. */
export const usagePath = (url: string) => `${sqlitePath(url)}-usage`;

const CREATE_TABLE = `create table daily_usage (
  user_id text not null,
  day text not null,
  count integer not null,
  primary key (user_id, day)
)`;

/**
 * Opens (and on first use creates) the usage file of the store at `url`, whose main file `main` is
 * open and migrated. A store from before the file existed has its counts in the main file's
 * daily_usage table: they move here once, so that no count of the day is forgotten.
 */
export async function openUsageFile(url: string, main: Kysely<Database>): Promise<Kysely<Database>> {
  createPrivateFile(usagePath(url));
  const database = new SQLite(usagePath(url));
  try {
    database.pragma('journal_mode = WAL');
    database.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    const exists = () => database.prepare(`select 1 from sqlite_master where type = 'table' and name = 'daily_usage'`).get() !== undefined;
    if (!exists()) {
      const earlier = await main.selectFrom('daily_usage').selectAll().execute();
      // Immediate: two processes opening a new store at once create the table (and copy) once.
      database.transaction(() => {
        if (exists()) return;
        database.exec(CREATE_TABLE);
        const insert = database.prepare('insert into daily_usage (user_id, day, count) values (?, ?, ?)');
        for (const row of earlier) insert.run(row.user_id, row.day, row.count);
      }).immediate();
      // Copied and committed: the main file's rows would only be stale from here on.
      if (earlier.length > 0) await main.deleteFrom('daily_usage').execute();
    }
  } catch (error) {
    database.close();
    throw error;
  }
  return initialized(new Kysely<Database>({ dialect: new TurnCommitDialect(database) }));
}

/** Kysely's SQLite dialect (adapter, compiler) over the driver that commits a turn's counts together. */
class TurnCommitDialect extends SqliteDialect {
  constructor(private readonly usageFile: SQLite.Database) {
    super({ database: usageFile });
  }

  override createDriver(): Driver {
    return new TurnCommitSqliteDriver(this.usageFile);
  }
}
