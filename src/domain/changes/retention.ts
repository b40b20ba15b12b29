/** HISTORY_RETENTION_DAYS: the change log pruned now and then (CONTRACT "History: Retention"). */
import { pruneChangesBefore } from '../../store/content-writes/log-retention.js';
import type { Db } from '../../store/schema.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Prunes what is older than `days` before `now`, keeping each object's newest change; answers how many changes went. */
export async function pruneHistory(db: Db, days: number, now = Date.now()): Promise<number> {
  return pruneChangesBefore(db, new Date(now - days * DAY_MS).toISOString());
}
