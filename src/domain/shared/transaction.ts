/** Runs a use case's writes as one transaction. */
import type { Kysely, Transaction } from 'kysely';
import type { Database, Db } from '../../store/schema.js';

/** Runs `work` in a transaction, or inside the caller's when `db` already is one. */
export async function inTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  return (db as Kysely<Database>).transaction().execute(work);
}
