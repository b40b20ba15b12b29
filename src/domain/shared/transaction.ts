/** Runs a use case's writes as one transaction. */
import type { Kysely, Transaction } from 'kysely';
import { announceCommitted, takeRecorded } from '../../store/content-writes/change-feed.js';
import type { ChangeSetRecord } from '../../store/content-writes/change-log.js';
import { bindTransaction } from '../../store/prepared.js';
import type { Database, Db } from '../../store/schema.js';

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one. Once it commits, the
 * change sets its writes recorded are announced on the store's change feed (a rollback announces none).
 */
export async function inTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  const root = db as Kysely<Database>;
  let recorded: ChangeSetRecord[] = [];
  const result = await root.transaction().execute(async (trx) => {
    const binding = bindTransaction(trx);
    if (binding) await binding;
    const answer = await work(trx);
    recorded = takeRecorded(trx);
    return answer;
  });
  announceCommitted(root, recorded);
  return result;
}

/** Thrown inside a write's transaction when the write would change nothing: rolls it back, version bump included. */
class Unchanged<T> extends Error {
  constructor(readonly answer: T) {
    super('nothing changed');
  }
}

/**
 * The answer of a write that changes nothing (the same text saved again, an empty cell emptied): thrown
 * inside inWriteTransaction's work, it rolls the transaction back, so the project's content version (the
 * exports' ETag, the kept reads) stays as it was and nothing is recorded (CONTRACT "History": a write
 * that changes nothing records nothing).
 */
export function unchanged<T>(answer: T): never {
  throw new Unchanged(answer);
}

/** inTransaction for a write that may find it changes nothing: then the `unchanged(answer)` answer, all rolled back. */
export async function inWriteTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  try {
    return await inTransaction(db, work);
  } catch (error) {
    // Inside a caller's transaction the rollback is the caller's: the answer stands, the bump with it.
    if (error instanceof Unchanged) return error.answer as T;
    throw error;
  }
}
