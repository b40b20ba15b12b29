/**
 * The writes that differ between the stores, behind one interface with one SQLite and one PostgreSQL
 * implementation (sqlite-writes.ts, postgres-writes.ts): how a write to an entry or a group starts
 * (the project's version bumped under its lock, then what the write checks, read after the lock), a
 * translation saved and a new entry inserted, each with its change record. On PostgreSQL each
 * statement is a round trip under the project's lock, so these fold their steps into few statements
 * (a save is 3 in all, a create 3, the first two sent together: the read goes out with the bump and
 * runs as soon as the lock is taken); on SQLite a statement costs no trip, but each still costs a few
 * µs besides its work, so what a write checks is one read there too (before the bump: the one writer is
 * held from the write's start), and the rest run as the plain statements they are made of. Callers use
 * the functions below, never a dialect branch.
 */
import { isPostgres } from '../dialect.js';
import type { ProjectForUser } from '../repositories/projects.js';
import type { Db, EntryRow, GroupRow, TranslationRow } from '../schema.js';
import type { ChangeRecord, ChangeSetRecord } from './change-log.js';
import { postgresWrites } from './postgres-writes.js';
import type { TextSave } from './translation-rows.js';
import { sqliteWrites } from './sqlite-writes.js';

/** What a write to an entry checks, read after its start (a statement of its own: it must see what the lock waited for). */
export interface EntryForWrite {
  entry: EntryRow;
  /** the entry's project as the user sees it (the access check's read) */
  project: ProjectForUser;
  /** the entry's translation in the language asked for, if any */
  translation: TranslationRow | undefined;
  /** the technical names of the entry's group and its ancestors, from the top (its changes' key) */
  groupPath: string[];
}

/** What a write to a group checks, read after its start. */
export interface GroupForWrite {
  group: GroupRow;
  /** the group's project as the user sees it (the access check's read) */
  project: ProjectForUser;
  /** the technical names of the group's ancestors and its own, from the top (its changes' key) */
  path: string[];
}

/** A write's change set with its one change (the hot writes fold their record into their own statement). */
export interface OneChangeRecord {
  set: ChangeSetRecord;
  change: ChangeRecord;
}

/** A write to an entry, started: the project's new content version, and what the write checks. */
export interface EntryWriteStart extends EntryForWrite {
  /** the project's content version this write brings it to */
  version: number;
}

/** A write to a group, started: the project's new content version, and what the write checks. */
export interface GroupWriteStart extends GroupForWrite {
  version: number;
}

export interface DialectWrites {
  /**
   * beginProjectWrite for the project of the entry, and under its lock the entry, its project as `userId`
   * sees it (at the new version) and (with `language`) its translation; undefined when the entry or its
   * project is gone. (SQLite reads first: its one writer is held from the write's start.)
   */
  startEntryWrite(db: Db, entryId: string, now: string, userId: string, language: string | null): Promise<EntryWriteStart | undefined>;
  /** beginProjectWrite for the project of the group, and under its lock the group and its project as `userId` sees it; undefined when either is gone */
  startGroupWrite(db: Db, groupId: string, now: string, userId: string): Promise<GroupWriteStart | undefined>;
  /** inserts or replaces the (entry, language) translation, marks the pair translated, records the change; the stored row */
  saveTranslation(db: Db, row: TextSave, record: OneChangeRecord): Promise<TranslationRow>;
  /**
   * inserts a new entry unless its technical name is taken in its group's name space, marks it
   * untranslated in each of `languages`, records the change; false when the name was taken (nothing
   * written). A unique or foreign-key violation is thrown as the database reports it.
   */
  insertNewEntry(db: Db, row: EntryRow, languages: readonly string[], record: OneChangeRecord): Promise<boolean>;
}

const writesOf = (db: Db): DialectWrites => (isPostgres(db) ? postgresWrites : sqliteWrites);

export const startEntryWrite: DialectWrites['startEntryWrite'] = (db, ...args) => writesOf(db).startEntryWrite(db, ...args);
export const startGroupWrite: DialectWrites['startGroupWrite'] = (db, ...args) => writesOf(db).startGroupWrite(db, ...args);
export const saveTranslation: DialectWrites['saveTranslation'] = (db, ...args) => writesOf(db).saveTranslation(db, ...args);
export const insertNewEntry: DialectWrites['insertNewEntry'] = (db, ...args) => writesOf(db).insertNewEntry(db, ...args);
