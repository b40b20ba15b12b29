/**
 * The grid's keyboard model: one active cell (moved by arrow keys, never opened by moving), one cell
 * being edited at most, and a save status per cell. Saves run in the background, so Ctrl+Enter can go
 * on to the next row while the previous text is still on its way.
 */
import { reactive, ref, type Ref } from 'vue';
import { cellValue, statusKey, translationOf, type Column } from './columns';
import { saveCell, type CellStatus } from './cellSave';
import type { ConflictChoice, ConflictQuestion } from './useConflicts';
import type { useEntryPages } from './useEntryPages';
import type { Translation } from '../../types';

export interface Editing {
  row: number;
  col: number;
  entryId: string;
  draft: string;
  original: string;
  base: string | null;
  /** a base term edit marked as a typo fix (its translations stay current) */
  minorEdit: boolean;
}

export function useGridEditing(options: {
  columns: Ref<Column[]>;
  rows: ReturnType<typeof useEntryPages>;
  ask: (question: ConflictQuestion) => Promise<ConflictChoice>;
  onSaved: () => void;
}) {
  const { columns, rows } = options;
  const active = ref({ row: 0, col: 0 });
  const editing = ref<Editing | null>(null);
  const statuses = reactive(new Map<string, CellStatus>());

  function moveTo(row: number, col: number): void {
    const lastRow = Math.max(0, rows.total.value - 1);
    const lastCol = Math.max(0, columns.value.length - 1);
    active.value = { row: Math.min(Math.max(row, 0), lastRow), col: Math.min(Math.max(col, 0), lastCol) };
  }

  /** Opens the cell for editing, when the user may edit it; answers whether it opened. */
  async function begin(row = active.value.row, col = active.value.col): Promise<boolean> {
    const column = columns.value[col];
    if (!column?.editable || row >= rows.total.value) return false;
    const entry = await rows.loadRow(row);
    if (!entry) return false;
    moveTo(row, col);
    const original = cellValue(entry, column);
    const base = column.kind === 'translation' ? (translationOf(entry, column.language ?? '')?.updatedAt ?? null) : null;
    editing.value = { row, col, entryId: entry.id, draft: original, original, base, minorEdit: false };
    return true;
  }

  function cancel(): void {
    editing.value = null;
  }

  /** Closes the editor and saves a changed text; with `next`, opens the same column one row down. */
  async function commit(next = false): Promise<void> {
    const edit = editing.value;
    if (!edit) return;
    editing.value = null;
    const column = columns.value[edit.col];
    const entry = rows.rowAt(edit.row);
    if (column && entry?.id === edit.entryId && edit.draft !== edit.original) void save(edit, column);
    if (next && edit.row + 1 < rows.total.value) {
      moveTo(edit.row + 1, edit.col);
      await begin(edit.row + 1, edit.col);
    }
  }

  async function save(edit: Editing, column: Column): Promise<void> {
    const entry = rows.rowAt(edit.row);
    if (!entry) return;
    const key = statusKey(entry.id, column);
    statuses.set(key, { state: 'saving' });
    const ask = (question: ConflictQuestion): Promise<ConflictChoice> => {
      statuses.set(key, { state: 'conflict' });
      return options.ask(question);
    };
    const result = await saveCell({ entry, column, text: edit.draft, base: edit.base, minorEdit: edit.minorEdit }, ask);
    statuses.set(key, result.status);
    if (result.entry) {
      const current = rows.rowAt(edit.row);
      if (current?.id === entry.id) rows.replaceRow(edit.row, { ...result.entry, translations: mergeTranslations(current, result.entry, column) });
      options.onSaved();
    }
  }

  /** Moves to the next row (after the active one, wrapping) without a `language` translation; false when there is none. */
  async function nextUntranslated(language: string): Promise<boolean> {
    const col = columns.value.findIndex((column) => column.kind === 'translation' && column.language === language);
    const total = rows.total.value;
    if (col < 0 || total === 0) return false;
    for (let step = 1; step <= total; step++) {
      const row = (active.value.row + step) % total;
      const entry = rows.rowAt(row) ?? (await rows.loadRow(row));
      if (entry && !translationOf(entry, language)) {
        moveTo(row, col);
        return true;
      }
    }
    return false;
  }

  return { active, editing, statuses, moveTo, begin, cancel, commit, nextUntranslated };
}

/**
 * The saved column's translation from `saved`, every other column as it is now (other saves may have
 * landed); a base term's save read every translation again (their outdated flags may have changed).
 */
function mergeTranslations(current: { translations: Translation[] }, saved: { translations: Translation[] }, column: Column): Translation[] {
  if (column.kind === 'baseTerm') return saved.translations;
  if (column.kind !== 'translation') return current.translations;
  const others = current.translations.filter((item) => item.language !== column.language);
  const mine = saved.translations.find((item) => item.language === column.language);
  return mine ? [...others, mine] : others;
}
