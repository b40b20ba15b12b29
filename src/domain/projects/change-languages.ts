/**
 * A change of a project's translation languages that never holds the server (issue 30). Every listed
 * language needs a missing-translation row per entry without a translation in it: 1,000,000 rows for
 * 5,000 entries going to 200 languages, which the PATCH wrote in 24 s of a stalled event loop on the
 * embedded store (150 s on PostgreSQL). Now the PATCH only lists the languages, and a language whose
 * rows are not complete is counted from entries and translations instead (store/repositories/
 * missing-translations.ts). The rows are then written, and a removed language's deleted, in bounded
 * steps after the PATCH; a language is marked complete only when its rows are, under the project's
 * lock. Rows of a language the project does not list are never read, and never wrong, at most
 * incomplete: no translation can be written in an unlisted language, and an entry takes its rows with it.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import * as missing from '../../store/repositories/missing-translations.js';
import * as steps from '../../store/repositories/missing-translations-steps.js';
import { findProjectById } from '../../store/repositories/projects.js';
import type { Db } from '../../store/schema.js';
import { inTransaction } from '../shared/transaction.js';

export interface LanguageChange {
  added: string[];
  removed: string[];
}

/**
 * In the PATCH's transaction, after beginProjectWrite and before the new list is stored: what `to`
 * adds to and removes from the listed languages, none of them complete any more.
 */
export async function relistLanguages(trx: Db, projectId: string, to: readonly string[]): Promise<LanguageChange> {
  const listed = (await findProjectById(trx, projectId))?.translationLanguages ?? [];
  const change = { added: to.filter((language) => !listed.includes(language)), removed: listed.filter((language) => !to.includes(language)) };
  await missing.markIncomplete(trx, projectId, [...change.added, ...change.removed]);
  return change;
}

const pending = new Map<string, Promise<void>>();

/**
 * After the PATCH: the rows of the removed languages go and the added languages' come, a step at a
 * time, after the project's earlier changes in this process. Not awaited by the PATCH; a step that
 * fails (the server closing) leaves the language counted, which is always right.
 */
export function settleLanguages(db: Db, projectId: string, change: LanguageChange): void {
  if (change.added.length === 0 && change.removed.length === 0) return;
  const work = async () => {
    await forgetRemoved(db, projectId, change.removed);
    await fillAdded(db, projectId, change.added);
  };
  const settled = (pending.get(projectId) ?? Promise.resolve()).then(work).catch(() => undefined);
  pending.set(projectId, settled);
  void settled.then(() => {
    if (pending.get(projectId) === settled) pending.delete(projectId);
  });
}

/** Resolves once the project's language changes in this process have written their rows (tests wait for it). */
export async function languagesSettled(projectId: string): Promise<void> {
  await pending.get(projectId);
}

/** The languages of `among` the project lists now (read under the step's hold on its writes). */
async function listedAmong(trx: Db, projectId: string, among: readonly string[], listed: boolean): Promise<string[]> {
  const now = (await findProjectById(trx, projectId))?.translationLanguages ?? [];
  return among.filter((language) => now.includes(language) === listed);
}

/** Deletes the rows of `removed` languages that are still not listed, a step of entries at a time. */
async function forgetRemoved(db: Db, projectId: string, removed: readonly string[]): Promise<void> {
  await eachStep(db, projectId, removed.length, async (trx, entryIds) => {
    await steps.forgetMissingOf(trx, projectId, entryIds, await listedAmong(trx, projectId, removed, false));
  });
}

/** Writes the rows of `added` languages that are still listed, a step of entries at a time, then marks those complete whose rows are. */
async function fillAdded(db: Db, projectId: string, added: readonly string[]): Promise<void> {
  const last = await eachStep(db, projectId, added.length, async (trx, entryIds) => {
    await steps.recordMissingOf(trx, projectId, entryIds, await listedAmong(trx, projectId, added, true));
  });
  if (added.length === 0) return;
  await inTransaction(db, async (trx) => {
    await steps.holdProjectWrites(trx, projectId, 'exclusive');
    const languages = await listedAmong(trx, projectId, added, true);
    // Entries made since the last step; then the counts decide (an entry made with an older created_at).
    await steps.recordMissingAfter(trx, projectId, last, languages);
    const incomplete = await steps.incompleteLanguages(trx, projectId, languages);
    await missing.markComplete(trx, projectId, languages.filter((language) => !incomplete.includes(language)));
  });
}

/** Runs `step` over the project's entries, about rowsPerStep rows (entries × `languageCount`) at a time; where it stopped. */
async function eachStep(db: Db, projectId: string, languageCount: number, step: (trx: Db, entryIds: string[]) => Promise<void>): Promise<steps.EntryPosition | null> {
  let last: steps.EntryPosition | null = null;
  if (languageCount === 0) return last;
  const perStep = Math.max(1, Math.floor(steps.rowsPerStep(db) / languageCount));
  for (;;) {
    const page = await steps.nextEntries(db, projectId, last, perStep);
    if (page.length === 0) return last;
    await inTransaction(db, async (trx) => {
      await steps.holdProjectWrites(trx, projectId, 'shared');
      await step(trx, page.map((entry) => entry.id));
    });
    last = page.at(-1)!;
    await yieldToEventLoop();
  }
}
