/** Chooses the dialect from DATABASE_URL, connects, and brings the schema up to date (or opens it read-only, as it is). */
import { existsSync } from 'node:fs';
import { Migrator, sql, type Kysely } from 'kysely';
import { migrationProvider } from './migrations/index.js';
import { connectPostgres, postgresPoolStats, withMigrationLock, type PoolStats, type PostgresOptions } from './postgres/connect.js';
import type { Database } from './schema.js';
import { connectSqlite, connectSqliteReader, initialized, sqlitePath } from './sqlite/connect.js';
import { openUsageFile, usagePath } from './sqlite/usage-file.js';
import { startBackgroundCheckpoints } from './sqlite/background-checkpoints.js';

export type Dialect = 'sqlite' | 'postgres';
export type { PoolStats };

export interface Store {
  readonly db: Kysely<Database>;
  /** for long consistent reads (exports); on SQLite its own read-only connection, on PostgreSQL the same pool */
  readonly reader: Kysely<Database>;
  /**
   * the daily request counts: on SQLite a file of their own beside the main one (sqlite/usage-file.ts),
   * so that a long write transaction never holds up a request's count; on PostgreSQL the same pool
   */
  readonly usage: Kysely<Database>;
  readonly dialect: Dialect;
  /**
   * the connection pool's counts now, for metrics; PostgreSQL only: SQLite holds its few connections
   * for the life of the process, so it has no pool to run short
   */
  poolStats?(): PoolStats | undefined;
  close(): Promise<void>;
}

/** A store opened for reading only (inspections such as `tolk doctor`). */
export type ReadOnlyStore = Pick<Store, 'reader' | 'dialect' | 'close'>;

/** Which dialect a DATABASE_URL names; throws a one-line reason for anything else. */
export function dialectOf(url: string): Dialect {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url.split(':')[0]}:…"`);
}

/**
 * The schema PostgreSQL creates tables in (the first of search_path). Kysely's migrator must be
 * told: otherwise it takes a migration table found in any other schema of the database for its own.
 */
async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: the search_path names no existing schema');
  return schema;
}

export interface StoreOptions extends PostgresOptions {
  /** SQLite: WAL checkpoints in a worker thread instead of inside commits (a server's; sqlite/background-checkpoints.ts) */
  backgroundCheckpoints?: boolean;
}

/** Opens the store and runs pending migrations (safe with several processes, and behind a pooler). */
export async function openStore(url: string, options: StoreOptions = {}): Promise<Store> {
  const dialect = dialectOf(url);
  const db = dialect === 'sqlite' ? connectSqlite(url) : connectPostgres(url, options);
  try {
    const migrationTableSchema = dialect === 'postgres' ? await currentSchema(db) : undefined;
    const migrate = () => new Migrator({ db, provider: migrationProvider, migrationTableSchema }).migrateToLatest();
    // SQLite has one writer; PostgreSQL processes starting together take turns (postgres/connect.ts).
    const { error } = dialect === 'postgres' ? await withMigrationLock(db, migrate) : await migrate();
    if (error) throw error;
  } catch (error) {
    await db.destroy();
    throw error;
  }
  if (dialect === 'postgres') return { db, reader: db, usage: db, dialect, poolStats: () => postgresPoolStats(db), close: () => db.destroy() };
  let usage: Kysely<Database>;
  try {
    usage = await openUsageFile(url, db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const reader = await initialized(connectSqliteReader(url));
  const checkpoints = options.backgroundCheckpoints ? await startBackgroundCheckpoints([sqlitePath(url), usagePath(url)], [db, usage]) : undefined;
  return {
    db,
    reader,
    usage,
    dialect,
    close: async () => {
      await checkpoints?.stop();
      await reader.destroy();
      await usage.destroy();
      await db.destroy();
    },
  };
}

/**
 * Opens an existing store for reading only: nothing is created or migrated, so an inspection
 * leaves the store exactly as it found it. Refuses a store whose schema is not up to date. On
 * SQLite its reader shows the usage file's daily counts as the daily_usage table.
 */
export async function openStoreReadOnly(url: string): Promise<ReadOnlyStore> {
  const dialect = dialectOf(url);
  if (dialect === 'sqlite' && !existsSync(sqlitePath(url))) throw new Error(`no store at ${sqlitePath(url)}`);
  const usageFile = dialect === 'sqlite' && existsSync(usagePath(url)) ? usagePath(url) : undefined;
  const reader = dialect === 'sqlite' ? connectSqliteReader(url, { usageFile }) : connectPostgres(url, { poolSize: 2 });
  try {
    const migrationTableSchema = dialect === 'postgres' ? await currentSchema(reader) : undefined;
    const migrations = await new Migrator({ db: reader, provider: migrationProvider, migrationTableSchema }).getMigrations();
    const pending = migrations.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
    if (pending.length > 0) throw new Error(`the store's schema is not up to date (pending: ${pending.join(', ')}); \`tolk serve\` migrates it`);
  } catch (error) {
    await reader.destroy();
    throw error;
  }
  return { reader, dialect, close: () => reader.destroy() };
}
