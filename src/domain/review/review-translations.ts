/**
 * Review, unreview and confirm one translation, and review many at once (CONTRACT "Review"). Each is
 * a write of the translation's review columns, recorded as a translation change (`state`/`outdated`
 * in its `before`/`after`), so a revert puts states back. None of them changes the text, so none
 * changes `updatedAt` (the translation's ETag).
 */
import { groupPaths } from '../groups/group-paths.js';
import { AppError, notFound } from '../../errors.js';
import { beginProjectWrite } from '../../store/content-writes/project-lock.js';
import { reviewTranslationRows } from '../../store/content-writes/bulk-rows.js';
import { setReviewColumns, type ReviewColumns } from '../../store/content-writes/translation-rows.js';
import { listProjectGroups } from '../../store/repositories/groups.js';
import { entriesWithTranslation } from '../../store/repositories/review-reads.js';
import type { Db, TranslationRow } from '../../store/schema.js';
import type { Capability } from '../access/capabilities.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import { keyOf, type TranslationChange } from '../changes/change.js';
import { changeSetFor, recordChanges } from '../changes/record-changes.js';
import { beginEntryWrite } from '../entries/entry-access.js';
import { etagMatches, reviewersOf, translationEtag, translationView, type TranslationView } from '../entries/entry-view.js';
import { nowIso } from '../shared/ids.js';
import { inWriteTransaction, unchanged } from '../shared/transaction.js';
import { checkTranslationLanguage } from '../translations/translation-language.js';
import { isOutdated, reviewedColumns, translationFields } from './translation-state.js';

/** What one of the single actions does to a stored translation: its new review columns, or null when it changes nothing. */
type Action = (stored: TranslationRow, entryRevision: number, userId: string, now: string) => ReviewColumns | null;

/** Approves the current text against the current base term; a reviewed, current one stays as it is (its first reviewer too). */
const review: Action = (stored, revision, userId, now) =>
  stored.state === 'reviewed' && !isOutdated(stored, revision)
    ? null
    : reviewedColumns(stored.translation, revision, userId, now);

/** Withdraws the review the translation keeps: nothing of it ships any more. */
const unreview: Action = (stored) =>
  stored.state === 'translated' && stored.reviewed_text === null
    ? null
    : { ...reviewColumns(stored), state: 'translated', reviewed_text: null, reviewed_by: null, reviewed_at: null, reviewed_revision: null };

/** Clears `outdated` without a new text; the state (and what a review approved) stays. */
const confirm: Action = (stored, revision) => (isOutdated(stored, revision) ? { ...reviewColumns(stored), base_revision: revision } : null);

const reviewColumns = (row: TranslationRow): ReviewColumns => ({
  state: row.state,
  base_revision: row.base_revision,
  reviewed_text: row.reviewed_text,
  reviewed_by: row.reviewed_by,
  reviewed_at: row.reviewed_at,
  reviewed_revision: row.reviewed_revision,
});

const ACTIONS = {
  review: { act: review, capability: 'canReview' },
  unreview: { act: unreview, capability: 'canReview' },
  confirm: { act: confirm, capability: 'canTranslate' },
} satisfies Record<string, { act: Action; capability: Capability }>;

export type ReviewAction = keyof typeof ACTIONS;

/**
 * Reviews, unreviews or confirms the entry's translation in `language`. `ifMatch` (the translation's
 * ETag as the reviewer read it): a text changed since → 412, nothing written.
 */
export async function actOnTranslation(
  db: Db,
  principal: Principal,
  entryId: string,
  action: ReviewAction,
  language: string,
  ifMatch?: string,
): Promise<{ translation: TranslationView; etag: string }> {
  const { act, capability } = ACTIONS[action];
  return inWriteTransaction(db, async (trx) => {
    const { entry, access, translation: stored, version, key } = await beginEntryWrite(trx, principal, entryId, capability, language);
    checkTranslationLanguage(access.project, language, '/body/language');
    if (!stored) throw notFound(`translation in "${language}"`);
    if (ifMatch !== undefined && !etagMatches(ifMatch, stored)) {
      throw new AppError('ERR_PRECONDITION_FAILED', 'the translation changed since you read it; read it again before you review it');
    }
    const revision = entry.base_revision;
    const now = nowIso();
    const columns = act(stored, revision, principal.userId, now);
    const answer = async (row: TranslationRow) => ({ translation: translationView(row, revision, await reviewersOf(trx, [row])), etag: translationEtag(row) });
    if (columns === null) unchanged(await answer(stored));
    const row = await setReviewColumns(trx, entryId, language, columns);
    if (!row) throw notFound(`translation in "${language}"`);
    await recordChanges(trx, changeSetFor(principal, entry.project_id, version, { createdAt: now }), [
      { target: 'translation', op: 'update', entryId, groupId: entry.group_id, language, key, before: translationFields(stored, revision), after: translationFields(row, revision) },
    ]);
    return answer(row);
  });
}

export interface BulkReviewAnswer {
  reviewed: number;
  unchanged: number;
  refused: { entryId: string; message: string }[];
}

/**
 * Reviews the translations in `language` of up to 1,000 entries of the project as one change set (a
 * repeated id counts once). A reviewed but outdated translation is reviewed again; a reviewed, current
 * one is unchanged; an id that is no entry of the project, or an entry without a translation in the
 * language, is refused (and named).
 */
export async function reviewMany(db: Db, principal: Principal, projectId: string, language: string, entryIds: readonly string[]): Promise<BulkReviewAnswer> {
  const ids = [...new Set(entryIds)];
  return inWriteTransaction(db, async (trx) => {
    const access = await loadProjectAccess(trx, principal, projectId);
    requireCapability(access, 'canReview');
    checkTranslationLanguage(access.project, language, '/body/language');
    const now = nowIso();
    const version = await beginProjectWrite(trx, projectId, now);
    if (version === undefined) throw notFound('project');
    const found = new Map((await entriesWithTranslation(trx, projectId, ids, language)).map((item) => [item.entry.id, item]));
    const answer: BulkReviewAnswer = { reviewed: 0, unchanged: 0, refused: [] };
    const toReview: string[] = [];
    for (const id of ids) {
      const item = found.get(id);
      if (!item) answer.refused.push({ entryId: id, message: 'no entry of this project has this id' });
      else if (!item.translation) answer.refused.push({ entryId: id, message: `the entry has no translation in "${language}"` });
      else if (review(item.translation, item.entry.base_revision, principal.userId, now) === null) answer.unchanged += 1;
      else toReview.push(id);
    }
    if (toReview.length === 0) unchanged(answer);
    await reviewTranslationRows(trx, toReview.length, (i) => [toReview[i]!, language], principal.userId, now);
    answer.reviewed = toReview.length;
    const groups = new Map((await listProjectGroups(trx, projectId)).map((group) => [group.id, group]));
    const pathOf = groupPaths((id) => groups.get(id));
    const changes: TranslationChange[] = toReview.map((id) => {
      const { entry, translation } = found.get(id)!;
      const revision = entry.base_revision;
      const after = { ...translation!, ...reviewedColumns(translation!.translation, revision, principal.userId, now) };
      const where = { target: 'translation', entryId: entry.id, groupId: entry.group_id, language, key: keyOf([...pathOf(entry.group_id), entry.technical_name]) } as const;
      return { ...where, op: 'update', before: translationFields(translation!, revision), after: translationFields(after, revision) };
    });
    await recordChanges(trx, changeSetFor(principal, projectId, version, { createdAt: now }), changes);
    return answer;
  });
}
