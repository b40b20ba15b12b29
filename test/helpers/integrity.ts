/**
 * The store's invariants for the tests: the product's own check (`tolk doctor` runs the same),
 * as one line per violation; [] means clean.
 */
import type { Kysely } from 'kysely';
import { MAX_GROUP_DEPTH } from '../../src/domain/groups/group-view.js';
import { inspectStore } from '../../src/domain/integrity/inspect-store.js';
import type { Database } from '../../src/store/schema.js';

/** The contract's depth limit: a top-level group has depth 1. */
export const MAX_DEPTH = MAX_GROUP_DEPTH;

/** Every violation of the store's invariants, one line each; [] when the store is sound. */
export async function checkIntegrity(db: Kysely<Database>): Promise<string[]> {
  return (await inspectStore(db)).problems.map((found) => `${found.check}: ${found.message}`);
}
