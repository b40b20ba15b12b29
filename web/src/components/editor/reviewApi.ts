/**
 * The review calls (CONTRACT "Review"): review, unreview and confirm one translation. A review says
 * which text the reviewer saw (`If-Match: "<updatedAt>"`), so a text changed since is never approved
 * unread: the server answers 412, and the stored entry is read for the reviewer to see the new text.
 */
import { api, ApiError } from '../../api';
import type { Entry, Translation } from '../../types';

export type ReviewAction = 'review' | 'unreview' | 'confirm';

const PATHS: Record<ReviewAction, { path: string; method: 'POST' | 'DELETE' }> = {
  review: { path: 'review', method: 'POST' },
  unreview: { path: 'review', method: 'DELETE' },
  confirm: { path: 'confirm', method: 'POST' },
};

/** What an action came to: the translation as it now is, or (a review only) the entry whose text changed since `seen`. */
export type ReviewOutcome = { kind: 'done'; translation: Translation } | { kind: 'changed'; stored: Entry };

/** Acts on the entry's `language` translation; `seen` is the updatedAt of the text the reviewer read (sent with a review). */
export async function actOnTranslation(entryId: string, language: string, action: ReviewAction, seen: string): Promise<ReviewOutcome> {
  const { path, method } = PATHS[action];
  try {
    const translation = await api<Translation>(`/entries/${encodeURIComponent(entryId)}/translations/${path}`, {
      method,
      body: { language },
      headers: action === 'review' ? { 'if-match': `"${seen}"` } : {},
    });
    return { kind: 'done', translation };
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) return { kind: 'changed', stored: await api<Entry>(`/entries/${encodeURIComponent(entryId)}`) };
    throw error;
  }
}

/**
 * Which actions a translation offers: a review of any text (one the grid shows as reviewed may have
 * changed since it was read: the server says so), an unreview of a kept review, a confirm of an outdated one.
 */
export function actionsFor(translation: Translation | undefined): Record<ReviewAction, boolean> {
  if (!translation) return { review: false, unreview: false, confirm: false };
  return {
    review: true,
    unreview: translation.state === 'reviewed' || translation.reviewedText !== null,
    confirm: translation.outdated,
  };
}
