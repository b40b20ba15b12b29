/**
 * Why a translation is outdated: the entry's latest base term change, read from its history (the
 * entry's changes, newest first). Asked once per entry and base term: every outdated cell of a row
 * shares the answer, and a new base term asks again.
 */
import { fieldOf } from '../history/changeText';
import { listChanges } from '../history/historyApi';

export interface BaseTermChange {
  before: string;
  after: string;
}

/** Pages of the entry's changes read at most while looking for its base term's (a prune keeps the newest anyway). */
const MAX_PAGES = 5;
const PAGE = 100;
const KEPT = 500;
const kept = new Map<string, Promise<BaseTermChange | null>>();

/** The entry's latest base term change; null when the history holds none (pruned, or only minor edits undone). */
export function latestBaseTermChange(projectId: string, entry: { id: string; baseTerm: string }): Promise<BaseTermChange | null> {
  const key = `${entry.id}\n${entry.baseTerm}`;
  let found = kept.get(key);
  if (!found) {
    if (kept.size >= KEPT) kept.clear();
    found = read(projectId, entry.id);
    kept.set(key, found);
    found.catch(() => kept.delete(key));
  }
  return found;
}

async function read(projectId: string, entryId: string): Promise<BaseTermChange | null> {
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await listChanges(projectId, { entryId, target: 'entry', limit: PAGE, offset: page * PAGE });
    for (const change of answer.result) {
      const [before, after] = [fieldOf(change.before, 'baseTerm'), fieldOf(change.after, 'baseTerm')];
      if (typeof before === 'string' && typeof after === 'string' && before !== after) return { before, after };
    }
    if ((page + 1) * PAGE >= answer.total || answer.result.length === 0) return null;
  }
  return null;
}
