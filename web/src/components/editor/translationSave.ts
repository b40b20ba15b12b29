/**
 * Saving one translation without losing anybody's text: the PUT says which stored text the edit
 * started from (`If-Match: "<updatedAt>"`, or `If-None-Match: *` when there was none). When someone
 * saved in between (412), the stored entry is read and the translator decides (see useConflicts).
 */
import { api, ApiError, request } from '../../api';
import type { Entry, EntrySummary, Translation } from '../../types';
import type { ConflictChoice, ConflictQuestion } from './useConflicts';

export type SaveResult =
  | { kind: 'saved'; translation: Translation | null }
  | { kind: 'keptTheirs'; translation: Translation | null }
  | { kind: 'failed'; message: string };

type Attempt = { kind: 'saved'; translation: Translation | null } | { kind: 'conflict'; stored: Entry };

async function attempt(entryId: string, language: string, text: string, base: string | null): Promise<Attempt> {
  try {
    if (text === '') {
      // an emptied cell removes the translation (the API has no empty translations)
      if (base !== null) await api(`/entries/${entryId}/translations`, { method: 'DELETE', body: { language }, headers: { 'if-match': `"${base}"` } });
      return { kind: 'saved', translation: null };
    }
    const headers: Record<string, string> = base === null ? { 'if-none-match': '*' } : { 'if-match': `"${base}"` };
    const response = await request<Translation>(`/entries/${entryId}/translations`, {
      method: 'PUT',
      body: { language, translation: text },
      headers,
    });
    return { kind: 'saved', translation: response.data };
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) {
      return { kind: 'conflict', stored: await api<Entry>(`/entries/${entryId}`) };
    }
    throw error;
  }
}

/** Saves `text` as the `language` translation of the entry, asking `ask` on every conflict. */
export async function saveTranslation(
  entry: Pick<EntrySummary, 'id' | 'technicalName'>,
  language: string,
  text: string,
  base: string | null,
  ask: (question: ConflictQuestion) => Promise<ConflictChoice>,
): Promise<SaveResult> {
  try {
    let mine = text;
    let outcome = await attempt(entry.id, language, mine, base);
    while (outcome.kind === 'conflict') {
      const theirs = outcome.stored.translations.find((translation) => translation.language === language) ?? null;
      const choice = await ask({ entryName: entry.technicalName, language, mine, theirs: theirs?.translation ?? '' });
      if (choice.kind === 'theirs') return { kind: 'keptTheirs', translation: theirs };
      mine = choice.text;
      outcome = await attempt(entry.id, language, mine, theirs?.updatedAt ?? null);
    }
    return outcome;
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}

/** The entry with `translation` as its text in `language` (null: none). */
export function withTranslation<T extends { translations: Translation[] }>(entry: T, language: string, translation: Translation | null): T {
  const others = entry.translations.filter((item) => item.language !== language);
  return { ...entry, translations: translation ? [...others, translation] : others };
}
