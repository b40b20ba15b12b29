/**
 * A cell's History as versions: each change of the cell wrote a version (its `after`), newest first;
 * the oldest change's `before` is the version before it. A version is restored by reverting the change
 * that replaced it — whose `before` it is — so the server's three-way rule decides: a version replaced
 * by the latest change comes back; an older one is a conflict (a later change is never overwritten),
 * and comes back once the newer ones are restored one by one.
 */
import type { Change, Entry } from '../../types';
import { fieldOf } from '../history/changeText';
import { listChanges } from '../history/historyApi';
import { translationOf, type Column } from './columns';

export interface CellVersion {
  /** the change that wrote it; null for the version before the oldest change */
  change: Change | null;
  /** the text (null: no translation, or the entry deleted) */
  text: string | null;
  /** the change that replaced it, which Restore reverts; null for the newest */
  replacedBy: Change | null;
}

/** The entry field a column shows; null for a translation column. */
const fieldOfColumn = (column: Column): string | null => (column.kind === 'translation' ? null : column.kind);

/** The cell's text in a change's before or after. */
export function cellText(column: Column, fields: Change['before']): string | null {
  if (fields === null) return null;
  const value = fieldOf(fields, fieldOfColumn(column) ?? 'text');
  return typeof value === 'string' ? value : null;
}

/**
 * The cell's text now: the newest change's, read with the history (every write records one, and a
 * prune keeps each object's newest), so a save made since the grid was read counts as the current
 * text; the grid's copy only for a cell with no change read.
 */
export function nowText(entry: Entry, column: Column, changes: readonly Change[]): string | null {
  const newest = changes[0];
  return newest ? cellText(column, newest.after) : currentText(entry, column);
}

/** The cell's text as the grid read it. */
function currentText(entry: Entry, column: Column): string | null {
  if (column.kind === 'translation') return translationOf(entry, column.language ?? '')?.translation ?? null;
  const value = column.kind === 'contextInfo' ? entry.contextInfo : entry[column.kind];
  return value ?? null;
}

/** A page of the changes that touched the cell: its translation's, or the entry's that changed the column's field. */
export async function cellChanges(projectId: string, entry: Entry, column: Column, offset: number): Promise<{ changes: Change[]; total: number; read: number }> {
  const field = fieldOfColumn(column);
  const page = await listChanges(projectId, {
    entryId: entry.id,
    ...(field === null ? { target: 'translation' as const, language: column.language ?? '' } : { target: 'entry' as const }),
    limit: 100,
    offset,
  });
  const changes = field === null ? page.result : page.result.filter((change) => fieldOf(change.before, field) !== fieldOf(change.after, field));
  return { changes, total: page.total, read: page.result.length };
}

/**
 * The versions of the changes (newest first). With every change read, the oldest change's `before`
 * too — for an entry's field only when there is one: undoing the entry's create would delete the entry.
 */
export function versionsOf(column: Column, changes: readonly Change[], allRead: boolean): CellVersion[] {
  const versions = changes.map((change, index): CellVersion => ({ change, text: cellText(column, change.after), replacedBy: changes[index - 1] ?? null }));
  const oldest = changes.at(-1);
  if (allRead && oldest && (column.kind === 'translation' || oldest.before !== null)) versions.push({ change: null, text: cellText(column, oldest.before), replacedBy: oldest });
  return versions;
}
