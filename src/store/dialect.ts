/** The few places where the two dialects differ at query time. */
import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Db } from './schema.js';

/** True when `db` talks to PostgreSQL (row locks and error codes differ from SQLite). */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/** A unique constraint refused the write (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A foreign key refused the write: the row it points to is gone (e.g. deleted concurrently). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Technical names in code-point order, as SQLite sorts them: PostgreSQL would otherwise use the
 * database's collation (linguistic on most installations), so pages would differ between stores.
 */
export function byTechnicalName(db: Db): RawBuilder<unknown> {
  return isPostgres(db) ? sql`technical_name collate "C"` : sql`technical_name`;
}
