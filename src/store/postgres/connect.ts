/** PostgreSQL (and wire-compatible engines) through node-postgres. */
import { Kysely, PostgresAdapter, PostgresDialect, sql, type DialectAdapter, type Driver } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import { markPipelined, PipelinedPostgresDriver, type PipelinedDriverOptions } from './pipelined-driver.js';

export interface PostgresOptions {
  /** a schema to work in instead of `public` (tests give every run its own) */
  schema?: string;
  poolSize?: number;
  /** false: the prepared queries run unnamed too (behind PgBouncer's transaction pooling) */
  namedStatements?: boolean;
}

/** How busy a connection pool is right now (read at each metrics scrape). */
export interface PoolStats {
  /** open connections, busy or idle */
  total: number;
  idle: number;
  /** queries waiting for a connection: above 0 for long, the pool is too small or the database too slow */
  waiting: number;
}

/** Kysely hides its pool; the store keeps it here to report its counts. */
const pools = new WeakMap<Kysely<Database>, pg.Pool>();

/** The pool counts of a database opened by connectPostgres (undefined for any other). */
export function postgresPoolStats(db: Kysely<Database>): PoolStats | undefined {
  const pool = pools.get(db);
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/**
 * Kysely's migrator takes a session-level advisory lock in one statement and releases it in another,
 * outside its migration transaction. Behind a pooler in transaction mode the two statements reach
 * different server connections: the lock was never released, and the next instance to start waited
 * an hour for it (seen behind PgBouncer with `npm run cluster`). The lock is taken per transaction
 * instead (withMigrationLock), so the adapter takes none of its own.
 */
class AdapterWithoutSessionLock extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}

class PooledPostgresDialect extends PostgresDialect {
  readonly #pool: pg.Pool;
  readonly #options: PipelinedDriverOptions;

  constructor(pool: pg.Pool, options: PipelinedDriverOptions) {
    super({ pool });
    this.#pool = pool;
    this.#options = options;
  }

  override createAdapter(): DialectAdapter {
    const adapter = new AdapterWithoutSessionLock();
    markPipelined(adapter);
    return adapter;
  }

  override createDriver(): Driver {
    return new PipelinedPostgresDriver(this.#pool, this.#options);
  }
}

/** Any number, the same in every tolk process: the key of the migration lock. */
const MIGRATION_LOCK_KEY = 7_362_916_504;

/**
 * Runs `migrate` (on other connections of `db`) while a transaction of its own holds the migration
 * lock: a transaction-level advisory lock keeps to one server connection, pooler or not, and ends
 * with the transaction, however it ends.
 */
export async function withMigrationLock<T>(db: Kysely<Database>, migrate: () => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(trx);
    return migrate();
  });
}

/** Opens a pooled connection to `postgres://…`. */
export function connectPostgres(url: string, options: PostgresOptions = {}): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // a query is written without waiting for the answer before it (pipelined-driver.ts)
    pipeline: true,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  } as pg.PoolConfig);
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PooledPostgresDialect(pool, { namedStatements: options.namedStatements !== false }) });
  pools.set(db, pool);
  return db;
}
