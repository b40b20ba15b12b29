/**
 * The in-process change feed: after a content write commits, each of its change sets is announced to
 * whoever listens in this process (the hook for webhooks and live updates). A write that rolls back
 * announces nothing. The log rows are the record; this only says "there is a new one". One feed per
 * store (keyed by its root connection), so two stores in one process never hear each other.
 */
import type { Kysely } from 'kysely';
import type { Database, Db } from '../schema.js';
import type { ChangeSetRecord } from './change-log.js';

export interface ChangeAnnouncement {
  projectId: string;
  /** the project's content version after the write */
  version: number;
  changeSetId: string;
  source: string;
  userId: string;
}

type Listener = (announcement: ChangeAnnouncement) => void;

export class ChangeFeed {
  readonly #listeners = new Set<Listener>();

  /** Listens until the returned function is called. A listener that throws is not the writer's problem. */
  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  announce(announcement: ChangeAnnouncement): void {
    for (const listener of this.#listeners) {
      try {
        listener(announcement);
      } catch {
        // a listener's failure stays its own: the write has committed
      }
    }
  }
}

const feeds = new WeakMap<Kysely<Database>, ChangeFeed>();
const recorded = new WeakMap<Db, ChangeSetRecord[]>();

/** The feed of the store whose root connection is `db`. */
export function changeFeedOf(db: Kysely<Database>): ChangeFeed {
  let feed = feeds.get(db);
  if (!feed) feeds.set(db, (feed = new ChangeFeed()));
  return feed;
}

/** Notes a set recorded in the transaction `db`, to be announced once it commits (takeRecorded). */
export function noteRecorded(db: Db, set: ChangeSetRecord): void {
  if (!db.isTransaction) return;
  const sets = recorded.get(db);
  if (sets) sets.push(set);
  else recorded.set(db, [set]);
}

/** The sets recorded in the transaction, forgotten here. */
export function takeRecorded(trx: Db): ChangeSetRecord[] {
  const sets = recorded.get(trx) ?? [];
  recorded.delete(trx);
  return sets;
}

/** Announces the committed sets on the store's feed. */
export function announceCommitted(root: Kysely<Database>, sets: readonly ChangeSetRecord[]): void {
  if (sets.length === 0) return;
  const feed = changeFeedOf(root);
  for (const set of sets) feed.announce({ projectId: set.projectId, version: set.version, changeSetId: set.id, source: set.source, userId: set.userId });
}
