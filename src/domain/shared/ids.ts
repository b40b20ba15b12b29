/** Ids and clock: the two inputs every write needs. */
import { createId } from '@paralleldrive/cuid2';

/** A new CUID2 id (the spec's project id format, used for every resource). */
export const newId = (): string => createId();

/** The current time as the ISO 8601 UTC text every timestamp is stored and served as. */
export const nowIso = (): string => new Date().toISOString();
