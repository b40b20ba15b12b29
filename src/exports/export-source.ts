/**
 * What an export reads: the project, its languages, its outline (export order, no texts), and then
 * every entry with all its translations, walked in export order a batch at a time. Nothing holds the
 * project's texts: a batch is gone once it has been walked. Read through one transaction (the
 * caller's), so that every batch comes from the same snapshot.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { listProjectGroups } from '../store/repositories/groups.js';
import { exportPlaces, exportRowsById, exportRowsByRuns, type EntryRun, type ExportRow, type ShippedTexts } from '../store/repositories/exports.js';
import { findProjectById, type ProjectRecord } from '../store/repositories/projects.js';
import type { Db } from '../store/schema.js';
import { collectGarbage, collectGarbageWhenGrown } from '../collect-garbage.js';
import { keptRowsOf, KEPT_PROJECT_ENTRIES, type KeptProjects } from './kept-rows.js';
import { buildOutline, type Outline } from './outline.js';

/** One entry with every translation it has. */
export type EntryTexts = ExportRow;

/** What a walk of the outline is told, in export order. */
export interface OutlineVisitor {
  open(name: string): void;
  close(): void;
  /** `path`: the group names from the top (the top-level keys' group is none), then the entry's own name */
  entry(entry: EntryTexts, path: readonly string[]): void;
  /** after every batch: a place to move what the visitor wrote out of memory */
  settle?(): Promise<void>;
}

export interface ExportSource {
  project: ProjectRecord;
  /** the base language first, then the translation languages in the project's order */
  languages: string[];
  outline: Outline;
  /** the entry's text in `language`; a missing translation falls back to the base term */
  textOf(entry: EntryTexts, language: string): string;
  /** Walks the outline, reading the entries' texts a batch at a time. */
  walk(visitor: OutlineVisitor): Promise<void>;
}

/** Exports of this many entries and more collect their garbage as they go. */
const LARGE = 20_000;

/** Entries per query: large enough to be cheap, small enough that other requests run in between. */
const BATCH = 2000;
/** Garbage a large export may leave between two collections. */
const GROWTH_BEFORE_COLLECTING = 16 * 1024 * 1024;

/**
 * Opens the project's export source through `db` (a read transaction, for consistency), from the rows
 * `kept` holds where they are current; undefined if the project is gone. Its translations are the
 * `shipped` texts: a translation without one is missing, and falls back to the base term.
 */
export async function openExportSource(db: Db, projectId: string, kept: KeptProjects, shipped: ShippedTexts = 'latest'): Promise<ExportSource | undefined> {
  const project = await findProjectById(db, projectId);
  if (!project) return undefined;
  const base = project.baseLanguage;
  const source = (outline: Outline, walk: ExportSource['walk']): ExportSource => ({
    project,
    languages: [base, ...project.translationLanguages],
    outline,
    textOf: (entry, language) => (language === base ? entry.baseTerm : (entry.translations[language] ?? entry.baseTerm)),
    walk,
  });
  const current = await kept.at(db, projectId, shipped, project.contentVersion);
  if (current) return source(current.outline, (visitor) => walkOutline(current.outline, visitor, async () => (index) => current.rows[index]));

  const outline = buildOutline(await listProjectGroups(db, projectId), await exportPlaces(db, projectId));
  return source(outline, async (visitor) => {
    const rows: ExportRow[] | undefined = outline.entryIds.length <= KEPT_PROJECT_ENTRIES ? [] : undefined;
    await walkOutline(outline, visitor, (start) => readBatch(db, projectId, shipped, outline, start), rows);
    if (rows) kept.keep(projectId, shipped, keptRowsOf(project.contentVersion, outline, rows));
  });
}

/** A batch's entries by their index in the outline (`start` the batch's first). */
type Batch = (index: number) => EntryTexts | undefined;

/**
 * The entries [start, start + BATCH) of the outline with their texts. Read as runs of the index (a
 * group's consecutive entries); an entry a run missed (the database orders some names otherwise than
 * JavaScript does, e.g. under a non-C collation) is then read by its id.
 */
async function readBatch(db: Db, projectId: string, shipped: ShippedTexts, outline: Outline, start: number): Promise<Batch> {
  const { entryIds, entryGroupIds, entryNames } = outline;
  const end = Math.min(start + BATCH, entryIds.length);
  const runs: EntryRun[] = [];
  for (let i = start; i < end; i += 1) {
    const last = runs.at(-1);
    if (last && last.groupId === entryGroupIds[i]) last.last = entryNames[i]!;
    else runs.push({ groupId: entryGroupIds[i]!, first: entryNames[i]!, last: entryNames[i]! });
  }
  const wanted = new Set(entryIds.slice(start, end));
  const batch = new Map<string, EntryTexts>();
  for (const row of await exportRowsByRuns(db, projectId, runs, shipped)) if (wanted.has(row.id)) batch.set(row.id, row);
  if (batch.size < wanted.size) {
    for (const row of await exportRowsById(db, [...wanted].filter((id) => !batch.has(id)), shipped)) batch.set(row.id, row);
  }
  return (index) => batch.get(entryIds[index]!);
}

/**
 * Calls the visitor along the outline, a batch of entries at a time (`read`), and puts every entry
 * visited into `visited` by its index when given. The next batch is asked for before the current one
 * is visited: on PostgreSQL the database reads it while this process writes the current one.
 */
async function walkOutline(outline: Outline, visitor: OutlineVisitor, read: (start: number) => Promise<Batch>, visited?: EntryTexts[]): Promise<void> {
  const path: string[] = [];
  let batch: Batch = () => undefined;
  let batchEnd = 0;
  const large = outline.entryIds.length >= LARGE;
  // What earlier work left (the last export's outline, this one's rows of places) goes before this
  // walk adds its batches: a large export started on top of the previous one's garbage peaked ~25 MB higher.
  if (large) collectGarbage();
  let next: Promise<Batch> | null = outline.entryIds.length > 0 ? read(0) : null;
  try {
    for (const step of outline.steps) {
      if (step.kind === 'open') {
        visitor.open(step.name);
        path.push(step.name);
      } else if (step.kind === 'close') {
        visitor.close();
        path.pop();
      } else {
        if (step.index >= batchEnd) {
          if (batchEnd > 0) {
            await visitor.settle?.();
            // Let other requests run between batches: one large export must not stall the server.
            await yieldToEventLoop();
            // A batch's rows outlive the young generation's collections, and V8 leaves the old
            // generation to grow to twice what is live before it collects: the peak RSS of a large
            // export (100,000 entries × 10 languages) was ~290 MB without these collections, ~220 MB with them.
            if (large) collectGarbageWhenGrown(GROWTH_BEFORE_COLLECTING);
          }
          batch = await next!;
          batchEnd = step.index + BATCH;
          next = batchEnd < outline.entryIds.length ? read(batchEnd) : null;
        }
        const entry = batch(step.index);
        if (!entry) throw new Error('an entry of the outline was not found in its own snapshot');
        if (visited) visited[step.index] = entry;
        path.push(step.name);
        visitor.entry(entry, path);
        path.pop();
      }
    }
  } finally {
    // A walk that stopped early leaves no read behind it unobserved.
    await next?.catch(() => undefined);
  }
  await visitor.settle?.();
}
