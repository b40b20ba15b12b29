/**
 * The rows an export last read of a small project (its outline and every entry's texts), kept with
 * their content version. Clients poll exports, and after a translation is saved the next export
 * would read the whole project again for one changed text: reading was half of such an export's time
 * (2,000 entries × 3 languages on SQLite: ~7 of 15 ms). Instead, the versions since are looked up in
 * the log of entry changes (beginProjectWrite): when each of them changed one entry's texts and
 * nothing else, only those entries are read, in the export's own snapshot; any other write since
 * (a name, a place, a group, the languages, an import) and the project is read in full again.
 *
 * Per app (content-caches.ts), like every kept read: another instance's writes are in the same log. Kept states are
 * never changed, only replaced, so an export walking one is not disturbed by the next.
 *
 * Kept per project and shipped texts (`latest`, `reviewed`…: one project's rows of each are different
 * rows). The log catches the reviewed ones up as it does the latest: a review, an unreview or a confirm
 * is a translation's change of its entry, and a base term edit (which moves `reviewed-current`) an
 * entry's change that keeps its name and group, so each re-reads its entry.
 */
import { entryChangesSince, exportRowsById, KEPT_VERSIONS_WINDOW, type ExportRow, type ShippedTexts } from '../store/repositories/exports.js';
import type { Db } from '../store/schema.js';
import type { Outline } from './outline.js';

export interface KeptRows {
  version: number;
  outline: Outline;
  /** every entry's row, in the outline's order (`rows[i]` is `outline.entryIds[i]`'s) */
  rows: readonly ExportRow[];
  /** an entry's place in `rows` */
  indexOf: ReadonlyMap<string, number>;
  /** about how much memory the rows take */
  bytes: number;
}

/** Projects up to this many entries are read into kept rows: a large project's export streams and holds no texts. */
export const KEPT_PROJECT_ENTRIES = 20_000;
/** All kept rows together, in bytes; one project may take half of it (the bench's small project: ~1.5 MB). */
const KEPT_BYTES = 32 * 1024 * 1024;

/** A project id has no NUL: one project's key cannot be mistaken for another's. */
const keyOf = (projectId: string, shipped: ShippedTexts) => `${projectId}\u0000${shipped}`;

export class KeptProjects {
  /** by project and shipped texts (keyOf) */
  readonly #byProject = new Map<string, KeptRows>();
  #bytes = 0;

  /** The project's rows of `shipped` texts at `version`, reading what changed since the kept ones; undefined → read in full. */
  async at(db: Db, projectId: string, shipped: ShippedTexts, version: number): Promise<KeptRows | undefined> {
    const kept = this.#byProject.get(keyOf(projectId, shipped));
    if (!kept || kept.version > version || version - kept.version > KEPT_VERSIONS_WINDOW) return undefined;
    if (kept.version === version) return kept;
    const changed = await entryChangesSince(db, projectId, kept.version, version);
    if (!changed) return undefined;
    const fresh = await exportRowsById(db, [...new Set(changed)], shipped);
    const rows = kept.rows.slice();
    let bytes = kept.bytes;
    for (const row of fresh) {
      const index = kept.indexOf.get(row.id);
      // Not in the outline: a change the log should have called a place change. Read in full.
      if (index === undefined) return undefined;
      bytes += bytesOf(row) - bytesOf(rows[index]!);
      rows[index] = row;
    }
    const current: KeptRows = { ...kept, version, rows, bytes };
    this.keep(projectId, shipped, current);
    return current;
  }

  /** Keeps rows of `shipped` texts read in full at their version (unless newer ones are kept already). */
  keep(projectId: string, shipped: ShippedTexts, rows: KeptRows): void {
    const key = keyOf(projectId, shipped);
    const previous = this.#byProject.get(key);
    if (previous) {
      if (previous.version > rows.version) return;
      this.#byProject.delete(key);
      this.#bytes -= previous.bytes;
    }
    if (rows.bytes > KEPT_BYTES / 2) return;
    // Most recently kept last (a Map keeps insertion order); the oldest go first.
    this.#byProject.set(key, rows);
    this.#bytes += rows.bytes;
    for (const [oldestId, oldest] of this.#byProject) {
      if (this.#bytes <= KEPT_BYTES) break;
      this.#byProject.delete(oldestId);
      this.#bytes -= oldest.bytes;
    }
  }
}


/** The rows of a full read, in the outline's order, as kept rows. */
export function keptRowsOf(version: number, outline: Outline, rows: readonly ExportRow[]): KeptRows {
  let bytes = 0;
  for (const row of rows) bytes += bytesOf(row);
  return { version, outline, rows, indexOf: new Map(outline.entryIds.map((id, index) => [id, index])), bytes };
}

/** A row's texts at two bytes a character, its ids, names and outline place at a flat ~300 bytes. */
function bytesOf(row: ExportRow): number {
  let characters = row.baseTerm.length + (row.contextInfo?.length ?? 0) + (row.arbMetadata?.length ?? 0);
  for (const language in row.translations) characters += row.translations[language]!.length + language.length;
  return 300 + 2 * characters;
}
