/** The store's invariants, checked on a live store: what `tolk doctor` runs, and the tests' integrity check. */
import { accountReferenceProblems } from '../../store/integrity/account-references.js';
import { contentReferenceProblems } from '../../store/integrity/content-references.js';
import { duplicateProblems } from '../../store/integrity/duplicates.js';
import { missingTranslationProblems } from '../../store/integrity/missing-translations.js';
import { reviewStateProblems } from '../../store/integrity/review-states.js';
import { changeObjectProblems } from '../../store/integrity/change-objects.js';
import type { IntegrityProblem } from '../../store/integrity/problem.js';
import { countRows, listGroupLinks, type RowCounts } from '../../store/integrity/stored-rows.js';
import type { Db } from '../../store/schema.js';
import { MAX_GROUP_DEPTH } from '../groups/group-view.js';
import { storedValueProblems } from './stored-values.js';
import { treeShapeProblems } from './tree-shape.js';

export type { IntegrityCheck, IntegrityProblem } from '../../store/integrity/problem.js';

export interface IntegrityReport {
  ok: boolean;
  /** rows per table that the checks looked at */
  checked: RowCounts;
  problems: IntegrityProblem[];
}

/**
 * Checks every invariant and lists each violation (reads only). Give it one read transaction
 * (see inReadSnapshot) when a server may be writing meanwhile, so all checks see one moment.
 */
export async function inspectStore(db: Db): Promise<IntegrityReport> {
  const checked = await countRows(db);
  const groups = await listGroupLinks(db);
  const problems = [
    ...(await contentReferenceProblems(db)),
    ...(await accountReferenceProblems(db)),
    ...(await duplicateProblems(db)),
    ...(await missingTranslationProblems(db)),
    ...(await reviewStateProblems(db)),
    ...(await changeObjectProblems(db)),
    ...treeShapeProblems(groups, MAX_GROUP_DEPTH),
    ...(await storedValueProblems(db, groups)),
  ];
  return { ok: problems.length === 0, checked, problems };
}
