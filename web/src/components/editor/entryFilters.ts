/**
 * The grid's review filters, per language: "needs review" keeps the rows whose translation is not
 * reviewed or is outdated (the rule of the API's unreviewed list), "outdated" those whose base term
 * changed since the translation was written, confirmed or reviewed. A row without a translation in
 * the language needs translating first, not reviewing: neither keeps it.
 */
import type { Entry } from '../../types';
import { translationOf } from './columns';

export const ENTRY_FILTERS = ['all', 'needsReview', 'outdated'] as const;
export type EntryFilter = (typeof ENTRY_FILTERS)[number];

/** Which rows a filter keeps; `key` names it (a new key starts the grid over). */
export interface RowFilter {
  key: string;
  matches(entry: Entry): boolean;
}

export function rowFilter(filter: EntryFilter, language: string): RowFilter | null {
  if (filter === 'all' || language === '') return null;
  return {
    key: `${filter}:${language}`,
    matches: (entry) => {
      const translation = translationOf(entry, language);
      if (!translation) return false;
      return filter === 'outdated' ? translation.outdated : translation.state !== 'reviewed' || translation.outdated;
    },
  };
}
