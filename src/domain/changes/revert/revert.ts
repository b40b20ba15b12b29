/**
 * POST /change-sets/{id}/revert and POST /changes/{id}/revert (CONTRACT "History"): puts back what a
 * change set (or one change) replaced, as a new change set (`source: revert`), never over a later
 * edit. The plan is made inside the write's transaction under the project's lock, so a save racing
 * the revert either lands after it or is seen here and listed as a conflict.
 */
import { AppError, forbidden, notFound } from '../../../errors.js';
import { beginProjectWrite } from '../../../store/content-writes/project-lock.js';
import { findChange, findChangeSet, latestChangeOf, listChangesOfSet, type ChangeRow, type ChangeSetRow } from '../../../store/repositories/revert-reads.js';
import type { Db } from '../../../store/schema.js';
import type { Capability } from '../../access/capabilities.js';
import { loadProjectAccess, type Principal, type ProjectAccess } from '../../access/project-access.js';
import { settleLanguages } from '../../projects/change-languages.js';
import { nowIso } from '../../shared/ids.js';
import { inTransaction, inWriteTransaction, unchanged } from '../../shared/transaction.js';
import type { Change } from '../change.js';
import { changeSetAt, type ChangeAuthor, type ChangeSetView } from '../read-history.js';
import { changeSetFor, recordChanges } from '../record-changes.js';
import { applyRevert, type AppliedRevert } from './apply-revert.js';
import { netChanges, type NettedObject, type Target } from './net-changes.js';
import { loadSnapshot, planRevert, type RevertPlan } from './plan-revert.js';

export type OnConflict = 'abort' | 'skip';

export interface RevertOptions {
  dryRun: boolean;
  onConflict: OnConflict;
}

/** An object's fields as the log records them (null where absent). */
type Fields = Change['before'] | Change['after'];

export interface RevertAnswer {
  dryRun: boolean;
  changeSet: ChangeSetView | null;
  restored: number;
  unchanged: number;
  conflicts: { changeId: string; target: Target; key: string | null; language: string | null; expected: Fields; current: Fields; changedBy: ChangeAuthor | null; changedAt: string | null }[];
  created: { target: 'group' | 'entry'; key: string; id: string | null }[];
  totals: { conflicts: number };
}

/** Items each list of the answer (and a 409's details) carries at most. */
const LIST_CAP = 1000;

/** What each target's write needs (CONTRACT "History": a revert needs what the writes it undoes needed). */
const CAPABILITY_OF: Record<Target, Capability> = {
  translation: 'canTranslate',
  entry: 'canEditEntries',
  group: 'canEditGroups',
  project: 'canUpdateProject',
};

/** A translation change that moved its state (a review, an unreview, a save of a reviewed text): undoing it reviews or unreviews. */
const movesState = (object: NettedObject): boolean =>
  object.target === 'translation' && (object.before?.state ?? 'translated') !== (object.after?.state ?? 'translated');

function requireCapabilities(access: ProjectAccess, objects: readonly NettedObject[]): void {
  const needed = new Set<Capability>(objects.map((object) => CAPABILITY_OF[object.target]));
  if (objects.some(movesState)) needed.add('canReview');
  const missing = [...needed].filter((capability) => !access.capabilities[capability]);
  if (missing.length > 0) throw forbidden(`this revert needs ${missing.join(' and ')} on the project, which your role does not give`);
}

/** Reverts a whole change set. */
export async function revertChangeSet(db: Db, principal: Principal, setId: string, options: RevertOptions): Promise<RevertAnswer> {
  const set = await findChangeSet(db, setId);
  if (!set) throw notFound('change set');
  return revert(db, principal, set, (trx) => listChangesOfSet(trx, set), options, () => notFound('change set'));
}

/** Reverts one change (its set is the new set's revertOf). */
export async function revertChange(db: Db, principal: Principal, changeId: string, options: RevertOptions): Promise<RevertAnswer> {
  const change = await findChange(db, changeId);
  const set = change && (await findChangeSet(db, change.change_set_id));
  if (!change || !set) throw notFound('change');
  return revert(db, principal, set, async () => [change], options, () => notFound('change'));
}

async function revert(
  db: Db,
  principal: Principal,
  set: ChangeSetRow,
  changesOf: (db: Db) => Promise<ChangeRow[]>,
  options: RevertOptions,
  missing: () => AppError,
): Promise<RevertAnswer> {
  const projectId = set.project_id;
  // Who cannot read the project learns nothing, not even that the set exists.
  await loadProjectAccess(db, principal, projectId, missing);
  const plan = async (trx: Db) => {
    const access = await loadProjectAccess(trx, principal, projectId, missing);
    const objects = netChanges(await changesOf(trx));
    requireCapabilities(access, objects);
    const snapshot = await loadSnapshot(trx, access.project, objects);
    return { snapshot, objects, plan: await planRevert(trx, snapshot, set.id, objects) };
  };
  if (options.dryRun) {
    // Read in one transaction: the plan sees one state of the project.
    const planned = await inTransaction(db, plan);
    return answerOf(db, planned.plan, true, null, undefined);
  }
  let written: { applied: AppliedRevert; changeSet: RevertAnswer['changeSet'] } | undefined;
  const answer = await inWriteTransaction(db, async (trx) => {
    const now = nowIso();
    const version = await beginProjectWrite(trx, projectId, now);
    if (version === undefined) throw missing();
    const planned = await plan(trx);
    if (planned.plan.conflicts.length > 0 && options.onConflict === 'abort') throw await conflictError(trx, planned.plan);
    if (planned.plan.actions.length === 0) unchanged(await answerOf(trx, planned.plan, false, null, undefined));
    const applied = await applyRevert(trx, planned.snapshot, planned.plan.actions, principal.userId, now);
    const record = changeSetFor(principal, projectId, version, { source: 'revert', revertOf: set.id, createdAt: now });
    await recordChanges(trx, record, applied.changes);
    // read back as the history lists it: one view of a set, its author's name from the same join
    const changeSet = (await changeSetAt(trx, projectId, version))!;
    written = { applied, changeSet };
    return answerOf(trx, planned.plan, false, changeSet, applied);
  });
  if (written?.applied.languages) settleLanguages(db, projectId, written.applied.languages);
  return answer;
}

async function conflictsOf(db: Db, plan: RevertPlan): Promise<RevertAnswer['conflicts']> {
  const listed: RevertAnswer['conflicts'] = [];
  for (const { object, expected, current } of plan.conflicts.slice(0, LIST_CAP)) {
    const latest = await latestChangeOf(db, object.object);
    listed.push({
      changeId: object.firstChangeId,
      target: object.target,
      key: object.key,
      language: object.language,
      expected: expected as Fields,
      current: current as Fields,
      changedBy: latest ? { id: latest.userId, firstName: latest.firstName, lastName: latest.lastName } : null,
      changedAt: latest?.createdAt ?? null,
    });
  }
  return listed;
}

async function answerOf(db: Db, plan: RevertPlan, dryRun: boolean, changeSet: RevertAnswer['changeSet'], applied: AppliedRevert | undefined): Promise<RevertAnswer> {
  const created: RevertAnswer['created'] = applied
    ? applied.created
    : plan.actions
        .filter((action) => action.kind === 'recreate' && (action.object.target === 'group' || action.object.target === 'entry'))
        .map((action) => ({ target: action.object.target as 'group' | 'entry', key: action.object.key ?? '', id: null }));
  return {
    dryRun,
    changeSet,
    restored: plan.actions.length,
    unchanged: plan.unchanged.length,
    conflicts: await conflictsOf(db, plan),
    created: created.slice(0, LIST_CAP),
    totals: { conflicts: plan.conflicts.length },
  };
}

/** 409 naming each conflict; nothing written. */
async function conflictError(db: Db, plan: RevertPlan): Promise<AppError> {
  const conflicts = await conflictsOf(db, plan);
  const who = (conflict: RevertAnswer['conflicts'][number]) =>
    conflict.changedBy ? ` by ${`${conflict.changedBy.firstName} ${conflict.changedBy.lastName}`.trim()} at ${conflict.changedAt}` : '';
  const path = (conflict: RevertAnswer['conflicts'][number]) => (conflict.language ? `${conflict.key ?? ''}/${conflict.language}` : (conflict.key ?? ''));
  return new AppError(
    'ERR_CONFLICT',
    `${plan.conflicts.length} object(s) changed since; nothing was reverted (onConflict=skip reverts the rest)`,
    conflicts.map((conflict) => ({ path: path(conflict), message: `the ${conflict.target} changed since${who(conflict)}` })),
  );
}
