/** One consistent, read-only view of a live store, for long reads: exports, the checks, the integrity checks. */
import type { Kysely, Transaction } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database } from './schema.js';

/**
 * Runs `work` in one read transaction, so that reads made one after another see the same moment
 * while a server keeps writing: a repeatable-read, read-only transaction on PostgreSQL (every
 * statement sees the snapshot of the first); on SQLite an ordinary transaction, whose first read
 * fixes the WAL snapshot every later read of it sees (its reader connection is read-only already).
 */
export function inReadSnapshot<T>(reader: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const transaction = reader.transaction();
  return (isPostgres(reader) ? transaction.setIsolationLevel('repeatable read').setAccessMode('read only') : transaction).execute(work);
}
