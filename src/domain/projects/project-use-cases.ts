/** Project use cases: list, create, get, update, delete. */
import { conflict, projectNotFound, validationError } from '../../errors.js';
import { listProjectNames } from '../../store/repositories/groups.js';
import { markComplete } from '../../store/repositories/missing-translations.js';
import { beginProjectWrite } from '../../store/content-writes/project-lock.js';
import * as projects from '../../store/repositories/projects.js';
import { memberCounts } from '../../store/repositories/members.js';
import type { Db } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import type { ProjectFields } from '../changes/change.js';
import { changeSetFor, recordChanges } from '../changes/record-changes.js';
import { newId, nowIso } from '../shared/ids.js';
import { pageOf, type Page, type PageRequest } from '../shared/page.js';
import { fitsKeyStyle, type KeyStyle } from '../../names/technical-names.js';
import { inTransaction, inWriteTransaction, unchanged } from '../shared/transaction.js';
import { relistLanguages, settleLanguages, type LanguageChange } from './change-languages.js';
import { checkLanguages } from './languages.js';
import { projectView, type ProjectDetailView, type ProjectView } from './project-view.js';

export interface ProjectInput {
  name: string;
  baseLanguage: string;
  translationLanguages: string[];
  keyStyle: KeyStyle;
}

/** Projects the caller owns or is a confirmed member of (no capabilities or quota in list items). */
export async function listProjects(db: Db, principal: Principal, page: PageRequest): Promise<Page<ProjectView>> {
  return pageOf(page, await projects.listProjectsForUser(db, principal.userId, page.limit, page.offset), projectView);
}

/** Creates a project owned by the caller. */
export async function createProject(db: Db, principal: Principal, input: Omit<ProjectInput, 'keyStyle'> & { keyStyle?: KeyStyle | undefined }): Promise<ProjectDetailView> {
  checkLanguages(input.baseLanguage, input.translationLanguages);
  const id = newId();
  await inTransaction(db, async (trx) => {
    await projects.insertProject(trx, { id, ownerId: principal.userId, ...input, keyStyle: input.keyStyle ?? 'camelCase', now: nowIso() });
    // No entries yet: every language's rows are complete.
    await markComplete(trx, id, input.translationLanguages);
  });
  const created = await projects.findProjectById(db, id);
  return { ...projectView(created!), capabilities: null, memberQuota: null };
}

/** One project with the caller's capabilities and the member quota. */
export async function getProject(db: Db, principal: Principal, projectId: string): Promise<ProjectDetailView> {
  const access = await loadProjectAccess(db, principal, projectId);
  const counts = await memberCounts(db, projectId);
  // Deleted since the access check (a racing DELETE): gone for this request too.
  if (!counts) throw projectNotFound();
  const overLimitCount = Math.max(0, counts.confirmed - counts.limit);
  return {
    ...projectView(access.project),
    capabilities: access.capabilities,
    memberQuota: { limit: counts.limit, confirmedCount: counts.confirmed, overLimitCount },
  };
}

export type ProjectChanges = { [K in keyof ProjectInput]?: ProjectInput[K] | null };

/**
 * Applies a PATCH; null and omitted fields stay unchanged, and a PATCH that changes nothing is refused.
 * New languages are listed at once; their missing-translation rows follow (change-languages.ts).
 */
export async function updateProject(db: Db, principal: Principal, projectId: string, changes: ProjectChanges): Promise<ProjectDetailView> {
  const given = {
    name: changes.name ?? undefined,
    baseLanguage: changes.baseLanguage ?? undefined,
    translationLanguages: changes.translationLanguages ?? undefined,
    keyStyle: changes.keyStyle ?? undefined,
  };
  const change = await inWriteTransaction(db, async (trx): Promise<LanguageChange | undefined> => {
    const access = await loadProjectAccess(trx, principal, projectId);
    requireCapability(access, 'canUpdateProject');
    if (Object.values(given).every((value) => value === undefined)) throw validationError('nothing to update: give name, baseLanguage, translationLanguages or keyStyle');
    checkLanguages(given.baseLanguage ?? access.project.baseLanguage, given.translationLanguages ?? access.project.translationLanguages);
    if (changesNothing(given, access.project)) unchanged(undefined);
    const version = await beginProjectWrite(trx, projectId, nowIso());
    // The project as it is under the lock: the change's `before` (the access read may predate a write it waited for).
    const current = version === undefined ? undefined : await projects.findProjectById(trx, projectId);
    if (version === undefined || !current) throw projectNotFound();
    if (changesNothing(given, current)) unchanged(undefined);
    if (given.keyStyle !== undefined && given.keyStyle !== current.keyStyle) await checkKeyStyleFits(trx, projectId, given.keyStyle);
    const relisted = given.translationLanguages === undefined ? undefined : await relistLanguages(trx, projectId, given.translationLanguages);
    await projects.updateProject(trx, projectId, given);
    const before = projectFields(current);
    const after = { ...before, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) } as ProjectFields;
    await recordChanges(trx, changeSetFor(principal, projectId, version), [{ target: 'project', op: 'update', key: null, before, after }]);
    return relisted;
  });
  if (change) settleLanguages(db, projectId, change);
  return getProject(db, principal, projectId);
}

/** The project in the change log's words. */
const projectFields = (project: projects.ProjectRecord): ProjectFields => ({
  name: project.name,
  baseLanguage: project.baseLanguage,
  translationLanguages: project.translationLanguages,
  keyStyle: project.keyStyle,
});

/** Whether every field the PATCH gives is the project's already (the languages in the same order). */
function changesNothing(given: { [K in keyof ProjectInput]?: ProjectInput[K] }, project: projects.ProjectRecord): boolean {
  const languages = given.translationLanguages;
  return (
    (given.name === undefined || given.name === project.name) &&
    (given.baseLanguage === undefined || given.baseLanguage === project.baseLanguage) &&
    (given.keyStyle === undefined || given.keyStyle === project.keyStyle) &&
    (languages === undefined || (languages.length === project.translationLanguages.length && languages.every((language, i) => language === project.translationLanguages[i])))
  );
}

/** How many names a 409 quotes when a key style does not fit. */
const QUOTED_NAMES = 20;

/** Refuses (409) a key style that some stored group or entry name breaks, naming them. */
async function checkKeyStyleFits(db: Db, projectId: string, style: KeyStyle): Promise<void> {
  const misfits = (await listProjectNames(db, projectId)).filter(({ kind, name }) => !fitsKeyStyle(name, kind, style));
  if (misfits.length === 0) return;
  const named = misfits.slice(0, QUOTED_NAMES).map(({ kind, name }) => (name === '' ? 'the group of top-level keys' : `${kind} "${name}"`));
  throw conflict(`keyStyle ${style} does not fit ${misfits.length} name(s) of this project: ${named.join(', ')}${misfits.length > QUOTED_NAMES ? ', …' : ''}; rename them first`);
}

/** Deletes a project and everything in it (owner only). */
export async function deleteProject(db: Db, principal: Principal, projectId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const access = await loadProjectAccess(trx, principal, projectId);
    requireCapability(access, 'canDeleteProject');
    await projects.deleteProject(trx, projectId);
  });
}
