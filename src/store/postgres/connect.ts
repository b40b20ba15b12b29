/** PostgreSQL (and wire-compatible engines) through node-postgres. */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';

export interface PostgresOptions {
  /** a schema to work in instead of `public` (tests give every run its own) */
  schema?: string;
  poolSize?: number;
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
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
