/** PostgreSQL (and wire-compatible engines) through node-postgres. */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { namedStatements } from '../prepared.js';
import type { Database } from '../schema.js';

export interface PostgresOptions {
  /** a schema to work in instead of `public` (tests give every run its own) */
  schema?: string;
  poolSize?: number;
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

/** Opens a pooled connection to `postgres://…`. */
export function connectPostgres(url: string, options: PostgresOptions = {}): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) });
  pools.set(db, pool);
  return db;
}

/**
 * Runs the prepared queries' SQL (see store/prepared.ts) as named statements: PostgreSQL then parses
 * and plans each once per connection instead of on every call. Everything else runs unnamed.
 */
function withNamedStatements(pool: pg.Pool): pg.Pool {
  const wrapped = new WeakSet<pg.PoolClient>();
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<pg.PoolClient>;
  const named = async (...args: unknown[]): Promise<pg.PoolClient> => {
    if (args.length > 0) return connect(...args); // the callback form, used by pg itself: left as it is
    const client = await connect();
    if (!wrapped.has(client)) {
      wrapped.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((text: unknown, values?: unknown) => {
        const name = typeof text === 'string' ? namedStatements.get(text) : undefined;
        return name && Array.isArray(values) ? query({ name, text, values }) : query(text, values);
      }) as typeof client.query;
    }
    return client;
  };
  return Object.assign(pool, { connect: named }) as pg.Pool;
}
