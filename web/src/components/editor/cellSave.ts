/** Saving one edited cell: a translation (with conflict handling) or a field of the entry itself. */
import { api } from '../../api';
import type { Entry, EntrySummary } from '../../types';
import { type Column } from './columns';
import { saveTranslation, withTranslation } from './translationSave';
import type { ConflictChoice, ConflictQuestion } from './useConflicts';

export type CellState = 'saving' | 'saved' | 'failed' | 'conflict' | 'keptTheirs';
export interface CellStatus {
  state: CellState;
  message?: string;
}

export interface CellEdit {
  entry: Entry;
  column: Column;
  text: string;
  /** updatedAt of the translation the edit started from; null when the cell was empty */
  base: string | null;
  /** a base term edit that is a typo fix: sent as `minorEdit`, so the translations are not marked outdated */
  minorEdit?: boolean;
}

/** Saves the edit; answers the entry as it now is (or undefined when nothing changed) and the cell's status. */
export async function saveCell(
  edit: CellEdit,
  ask: (question: ConflictQuestion) => Promise<ConflictChoice>,
): Promise<{ entry?: Entry; status: CellStatus }> {
  const { entry, column, text } = edit;
  if (column.kind === 'translation') {
    const language = column.language ?? '';
    const result = await saveTranslation(entry, language, text, edit.base, ask);
    if (result.kind === 'failed') return { status: { state: 'failed', message: result.message } };
    return {
      entry: withTranslation(entry, language, result.translation),
      status: { state: result.kind === 'saved' ? 'saved' : 'keptTheirs' },
    };
  }
  const value = column.kind === 'contextInfo' && text.trim() === '' ? null : text;
  const minor = column.kind === 'baseTerm' && edit.minorEdit === true ? { minorEdit: true } : {};
  try {
    const saved = await api<EntrySummary>(`/entries/${entry.id}`, { method: 'PATCH', body: { [column.kind]: value, ...minor } });
    const translations = column.kind === 'baseTerm' ? await translationsNow(entry) : entry.translations;
    return { entry: { ...entry, ...saved, translations }, status: { state: 'saved' } };
  } catch (error) {
    return { status: { state: 'failed', message: error instanceof Error ? error.message : String(error) } };
  }
}

/**
 * The entry's translations after a base term edit, which may have made them outdated; the grid's
 * copy when they cannot be read (the edit is saved all the same).
 */
async function translationsNow(entry: Entry): Promise<Entry['translations']> {
  try {
    return (await api<Entry>(`/entries/${entry.id}`)).translations;
  } catch {
    return entry.translations;
  }
}
