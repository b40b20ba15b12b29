/** Setting and removing an entry's translation in one language. */
import { AppError } from '../../errors.js';
import * as entries from '../../store/repositories/entries.js';
import * as missing from '../../store/repositories/missing-translations.js';
import { saveTranslation } from '../../store/content-writes/dialect-writes.js';
import { deleteTranslation } from '../../store/content-writes/translation-rows.js';
import type { Db, TranslationRow } from '../../store/schema.js';
import type { Principal } from '../access/project-access.js';
import { beginEntryWrite } from '../entries/entry-access.js';
import { etagMatches, reviewersOf, translationEtag, translationView, type TranslationView } from '../entries/entry-view.js';
import type { TranslationChange } from '../changes/change.js';
import { keptReview, translationFields, writtenFields } from '../review/translation-state.js';
import { changeSetFor, recordChanges } from '../changes/record-changes.js';
import { newOrderedId, nowIso } from '../shared/ids.js';
import { requireMessage } from '../shared/message-text.js';
import { inWriteTransaction, unchanged } from '../shared/transaction.js';
import { checkTranslationLanguage } from './translation-language.js';

export interface TranslationInput {
  language: string;
  translation: string;
  /** the If-Match header: the save is refused (412) unless the stored translation still has this ETag */
  ifMatch?: string | undefined;
  /** the If-None-Match header: `*` saves only when there is no translation yet (the editor's empty cell) */
  ifNoneMatch?: string | undefined;
}

/** Later than `previous` by at least a millisecond, so every save gives a new ETag. */
function nextTimestamp(previous: string | undefined): string {
  const now = nowIso();
  if (!previous || now > previous) return now;
  return new Date(Date.parse(previous) + 1).toISOString();
}

/** Upserts the (entry, language) translation; the caller becomes its translator. */
export async function setTranslation(
  db: Db,
  principal: Principal,
  entryId: string,
  input: TranslationInput,
): Promise<{ translation: TranslationView; etag: string }> {
  requireMessage(input.translation, '/body/translation');
  return inWriteTransaction(db, async (trx) => {
    const { entry, access, translation: stored, version, key } = await beginEntryWrite(trx, principal, entryId, 'canTranslate', input.language);
    checkTranslationLanguage(access.project, input.language, '/body/language');
    const preconditionFails =
      (input.ifMatch !== undefined && !etagMatches(input.ifMatch, stored)) ||
      (input.ifNoneMatch !== undefined && etagMatches(input.ifNoneMatch, stored));
    if (preconditionFails) {
      throw new AppError('ERR_PRECONDITION_FAILED', 'the translation changed since you read it; reload it and save again');
    }
    // The same text again changes nothing: not its updatedAt (so not its ETag), not its translator, not the project's version.
    // An outdated flag included: confirm is what clears it without a new text (CONTRACT "Review").
    if (stored?.translation === input.translation) {
      unchanged({ translation: translationView(stored, entry.base_revision, await reviewersOf(trx, [stored])), etag: translationEtag(stored) });
    }
    const now = nextTimestamp(stored?.updated_at);
    const where = { target: 'translation', entryId, groupId: entry.group_id, language: input.language, key } as const;
    const after = writtenFields(input.translation, stored && keptReview(stored));
    const change: TranslationChange = stored
      ? { ...where, op: 'update', before: translationFields(stored, entry.base_revision), after }
      : { ...where, op: 'create', before: null, after };
    const row = await saveTranslation(
      trx,
      {
        id: stored?.id ?? newOrderedId(),
        entry_id: entryId,
        language: input.language,
        translation: input.translation,
        translator_id: principal.userId,
        created_at: stored?.created_at ?? now,
        updated_at: now,
        base_revision: entry.base_revision,
      },
      { set: changeSetFor(principal, entry.project_id, version, { createdAt: now }), change },
    );
    return { translation: translationView(row, entry.base_revision, await reviewersOf(trx, [row])), etag: translationEtag(row) };
  });
}

/** Removes the (entry, language) translation; removing one that is not there succeeds too. */
export async function removeTranslation(db: Db, principal: Principal, entryId: string, language: string, ifMatch?: string): Promise<void> {
  await inWriteTransaction(db, async (trx) => {
    const { entry, access, translation: stored, version, key } = await beginEntryWrite(trx, principal, entryId, 'canTranslate', language);
    checkTranslationLanguage(access.project, language, '/body/language');
    // The editor empties a cell from the text it showed: a newer save by someone else is not removed.
    if (ifMatch !== undefined && !etagMatches(ifMatch, stored)) {
      throw new AppError('ERR_PRECONDITION_FAILED', 'the translation changed since you read it; reload it and decide again');
    }
    // Removing what is not there succeeds and changes nothing (the row was read under the lock).
    if (!stored || !(await deleteTranslation(trx, entryId, language))) unchanged(undefined);
    await missing.markUntranslated(trx, entryId, language);
    await recordChanges(trx, changeSetFor(principal, entry.project_id, version), [
      { target: 'translation', op: 'delete', entryId, groupId: entry.group_id, language, key, before: translationFields(stored, entry.base_revision), after: null },
    ]);
  });
}
