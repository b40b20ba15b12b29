/**
 * A consistent view of one project for an export: its languages, its outline (groups and entries in
 * output order), and every text, read from the database once and then written one language at a time.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { listProjectGroups } from '../store/repositories/groups.js';
import { exportBatch, type ExportCursor, type ExportRow } from '../store/repositories/exports.js';
import { findProjectById, type ProjectRecord } from '../store/repositories/projects.js';
import type { Db } from '../store/schema.js';
import { buildOutline, type Outline } from './tree.js';

/** One entry with every translation it has. */
export type EntryTexts = ExportRow;

export interface ProjectSnapshot {
  project: ProjectRecord;
  /** the base language first, then the translation languages in the project's order */
  languages: string[];
  outline: Outline;
  /** the entry's text in `language`; a missing translation falls back to the base term */
  textOf(entry: EntryTexts, language: string): string;
}

/** Entries per query: large enough to be cheap, small enough that other requests run in between. */
const BATCH = 2000;

/** Reads the project's snapshot through `db` (a read transaction, for consistency); undefined if it is gone. */
export async function loadSnapshot(db: Db, projectId: string, withIds = false): Promise<ProjectSnapshot | undefined> {
  const project = await findProjectById(db, projectId);
  if (!project) return undefined;
  const groups = await listProjectGroups(db, projectId);
  const entries = await readEntries(db, projectId, withIds);
  const base = project.baseLanguage;
  return {
    project,
    languages: [base, ...project.translationLanguages],
    outline: buildOutline(groups, entries),
    textOf: (entry, language) => (language === base ? entry.baseTerm : (entry.translations[language] ?? entry.baseTerm)),
  };
}

/**
 * Every entry of the project with all its translations, in one pass: each language is then a walk
 * over memory. (One database pass per language cost 10× more: 12 s for 100,000 entries × 10 languages.)
 */
async function readEntries(db: Db, projectId: string, withIds: boolean): Promise<EntryTexts[]> {
  const entries: EntryTexts[] = [];
  let after: ExportCursor | null = null;
  for (;;) {
    const rows = await exportBatch(db, projectId, after, BATCH, withIds);
    for (const row of rows) entries.push(row);
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return entries;
    after = { groupId: last.groupId, technicalName: last.technicalName };
    // Let other requests run between batches: one large export must not stall the server.
    await yieldToEventLoop();
  }
}
