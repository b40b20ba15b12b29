/** Chooses the dialect from DATABASE_URL, connects, and brings the schema up to date. */
import { Migrator, sql, type Kysely } from 'kysely';
import { migrationProvider } from './migrations/index.js';
import { connectPostgres, type PostgresOptions } from './postgres/connect.js';
import type { Database } from './schema.js';
import { connectSqlite, connectSqliteReader } from './sqlite/connect.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  readonly db: Kysely<Database>;
  /** for long consistent reads (exports); on SQLite its own read-only connection, on PostgreSQL the same pool */
  readonly reader: Kysely<Database>;
  readonly dialect: Dialect;
  close(): Promise<void>;
}

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

/** Opens the store and runs pending migrations (safe with several processes: Kysely locks). */
export async function openStore(url: string, options: PostgresOptions = {}): Promise<Store> {
  const dialect = dialectOf(url);
  const db = dialect === 'sqlite' ? connectSqlite(url) : connectPostgres(url, options);
  try {
    const migrationTableSchema = dialect === 'postgres' ? await currentSchema(db) : undefined;
    const { error } = await new Migrator({ db, provider: migrationProvider, migrationTableSchema }).migrateToLatest();
    if (error) throw error;
  } catch (error) {
    await db.destroy();
    throw error;
  }
  if (dialect === 'postgres') return { db, reader: db, dialect, close: () => db.destroy() };
  const reader = connectSqliteReader(url);
  return {
    db,
    reader,
    dialect,
    close: async () => {
      await reader.destroy();
      await db.destroy();
    },
  };
}
