/**
 * The rows an export last read of a small project (its outline and every entry's texts), kept with
 * their content version. Clients poll exports, and after a translation is saved the next export
 * would read the whole project again for one changed text: reading was half of such an export's time
 * (2,000 entries × 3 languages on SQLite: ~7 of 15 ms). Instead, the versions since are looked up in
 * the log of entry changes (beginProjectWrite): when each of them changed one entry's texts and
 * nothing else, only those entries are read, in the export's own snapshot; any other write since
 * (a name, a place, a group, the languages, an import) and the project is read in full again.
 *
 * Per process, like every kept read: another instance's writes are in the same log. Kept states are
 * never changed, only replaced, so an export walking one is not disturbed by the next.
 */
import { entryChangesSince, exportRowsById, type ExportRow } from '../store/repositories/exports.js';
import { ENTRY_CHANGES_KEPT } from '../store/repositories/projects.js';
import type { Db } from '../store/schema.js';
import type { Outline } from './outline.js';

export interface KeptRows {
  version: number;
  outline: Outline;
  /** every entry's row, in the outline's order (`rows[i]` is `outline.entryIds[i]`'s) */
  rows: readonly ExportRow[];
  /** an entry's place in `rows` */
  indexOf: ReadonlyMap<string, number>;
}

/** Projects up to this many entries are kept: a large project's export streams and holds no texts. */
export const KEPT_PROJECT_ENTRIES = 20_000;
/** All kept projects together, in entries (a 20,000-entry project in 10 languages is ~15 MB). */
const KEPT_ENTRIES = 60_000;

class KeptProjects {
  readonly #byProject = new Map<string, KeptRows>();
  #entries = 0;

  /** The project's rows at `version`, reading what changed since the kept ones; undefined → read in full. */
  async at(db: Db, projectId: string, version: number): Promise<KeptRows | undefined> {
    const kept = this.#byProject.get(projectId);
    if (!kept || kept.version > version || version - kept.version > ENTRY_CHANGES_KEPT) return undefined;
    if (kept.version === version) return kept;
    const changed = await entryChangesSince(db, projectId, kept.version, version);
    if (!changed) return undefined;
    const fresh = await exportRowsById(db, [...new Set(changed)]);
    const rows = kept.rows.slice();
    for (const row of fresh) {
      const index = kept.indexOf.get(row.id);
      // Not in the outline: a change the log should have called a place change. Read in full.
      if (index === undefined) return undefined;
      rows[index] = row;
    }
    const current: KeptRows = { ...kept, version, rows };
    this.keep(projectId, current);
    return current;
  }

  /** Keeps rows read in full at their version (unless newer ones are kept already). */
  keep(projectId: string, rows: KeptRows): void {
    const previous = this.#byProject.get(projectId);
    if (previous) {
      if (previous.version > rows.version) return;
      this.#byProject.delete(projectId);
      this.#entries -= previous.rows.length;
    }
    if (rows.rows.length > KEPT_PROJECT_ENTRIES) return;
    // Most recently kept last (a Map keeps insertion order); the oldest go first.
    this.#byProject.set(projectId, rows);
    this.#entries += rows.rows.length;
    for (const [oldestId, oldest] of this.#byProject) {
      if (this.#entries <= KEPT_ENTRIES) break;
      this.#byProject.delete(oldestId);
      this.#entries -= oldest.rows.length;
    }
  }
}

export const keptProjects = new KeptProjects();

/** The rows of a full read, in the outline's order, as kept rows. */
export function keptRowsOf(version: number, outline: Outline, rows: readonly ExportRow[]): KeptRows {
  return { version, outline, rows, indexOf: new Map(outline.entryIds.map((id, index) => [id, index])) };
}
