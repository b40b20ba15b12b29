/**
 * Reading the change log (CONTRACT "History"): a project's change sets and changes as Pages, newest
 * first, or after a version oldest first (a catch-up feed). Anyone who may read the entries may read
 * their history; a stranger gets the project's not-found.
 */
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import { approximateBytes } from '../shared/content-cache.js';
import type { ContentCaches } from '../shared/content-caches.js';
import type { Page, PageRequest } from '../shared/page.js';
import type { Db } from '../../store/schema.js';
import { pruneGeneration } from '../../store/content-writes/log-retention.js';
import * as history from '../../store/repositories/history.js';
import type { ImportSummary } from '../../store/content-writes/bulk-rows.js';
import type { Change, ChangeSource } from './change.js';

/** A list of every member of the union T: one left out (or a stranger) does not compile. */
const everyOf =
  <T>() =>
  <const L extends readonly T[]>(list: L & ([T] extends [L[number]] ? unknown : 'a member of the union is missing')): L =>
    list;

/** The change sources, targets and ops: the lists the API's filters and answers take. */
export const CHANGE_SOURCES = everyOf<ChangeSource>()(['api', 'web', 'import', 'revert']);
export const CHANGE_TARGETS = everyOf<Change['target']>()(['project', 'group', 'entry', 'translation']);
export const CHANGE_OPS = everyOf<Change['op']>()(['create', 'update', 'delete']);

export type ChangeTarget = (typeof CHANGE_TARGETS)[number];
export type ChangeOp = (typeof CHANGE_OPS)[number];

/** Who wrote a change set; a user whose row is gone keeps the id, with empty names. */
export interface ChangeAuthor {
  id: string;
  firstName: string;
  lastName: string;
}

export interface ChangeSetView {
  id: string;
  projectId: string;
  version: number;
  source: ChangeSource;
  user: ChangeAuthor;
  apiKeyId: string | null;
  createdAt: string;
  summary: { created: number; updated: number; deleted: number };
  revertOf: string | null;
  revertedBy: string | null;
  /** an import's: what it imported, by target, and from which format; null for any other set (and imports recorded before it was kept) */
  imported: ImportSummary | null;
}

/** A change's `before` or `after`, as the write path recorded it. */
export type ChangedFields = Change['before'] | Change['after'];

export interface ChangeView {
  id: string;
  changeSetId: string;
  version: number;
  target: ChangeTarget;
  op: ChangeOp;
  groupId: string | null;
  entryId: string | null;
  language: string | null;
  key: string | null;
  before: ChangedFields;
  after: ChangedFields;
  user: ChangeAuthor;
  source: ChangeSource;
  createdAt: string;
}

/** Filters both lists take: who and how, and the feed's starting version. */
interface CommonFilters {
  source?: ChangeSource;
  userId?: string;
  /** only what came after this version, oldest first */
  afterVersion?: number;
}

export type ChangeSetQuery = PageRequest &
  CommonFilters & {
    /** only sets with a translation change in this language */
    language?: string;
  };

export type ChangeQuery = PageRequest &
  CommonFilters & {
    changeSetId?: string;
    entryId?: string;
    groupId?: string;
    language?: string;
    target?: ChangeTarget;
    op?: ChangeOp;
  };

/** The project's change sets, newest first (after `afterVersion`: oldest first). */
export async function listChangeSets(db: Db, caches: ContentCaches, principal: Principal, projectId: string, query: ChangeSetQuery): Promise<Page<ChangeSetView>> {
  return kept(db, caches, principal, projectId, `change-sets:${JSON.stringify(query)}`, async () => {
    const found = await history.listChangeSets(db, projectId, query);
    return { limit: query.limit, offset: query.offset, total: found.total, result: found.rows.map(changeSetView) };
  });
}

/** The project's changes, newest first (after `afterVersion`: oldest first), ties by change id. */
export async function listChanges(db: Db, caches: ContentCaches, principal: Principal, projectId: string, query: ChangeQuery): Promise<Page<ChangeView>> {
  return kept(db, caches, principal, projectId, `changes:${JSON.stringify(query)}`, async () => {
    const found = await history.listChanges(db, projectId, query);
    return { limit: query.limit, offset: query.offset, total: found.total, result: found.rows.map(changeView) };
  });
}

/** The project's change set at `version`, as the history lists it (a write reads its own set back in its transaction). */
export async function changeSetAt(db: Db, projectId: string, version: number): Promise<ChangeSetView | undefined> {
  const { rows } = await history.listChangeSets(db, projectId, { limit: 1, offset: 0, afterVersion: version - 1 });
  return rows[0]?.version === version ? changeSetView(rows[0]) : undefined;
}

/**
 * A page of history, kept for the project's content version: every write that changes the history
 * moves the version (it records at the version it brings the project to), so a page read again before
 * the next write (an editor's History, a feed polled) is answered from memory. A prune moves no version:
 * its generation is part of the key. The authors' names are those of the first read of that version.
 */
async function kept<T>(db: Db, caches: ContentCaches, principal: Principal, projectId: string, key: string, read: () => Promise<T>): Promise<T> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadEntries');
  const version = access.project.contentVersion;
  const keptKey = `${key}:pruned${pruneGeneration(db)}`;
  const found = caches.entryReads.get<T>(keptKey, projectId, version);
  if (found) return found;
  const page = await read();
  caches.entryReads.set(keptKey, projectId, version, page, approximateBytes(page));
  return page;
}

const authorOf = (row: history.AuthoredRecord): ChangeAuthor => ({ id: row.userId, firstName: row.firstName ?? '', lastName: row.lastName ?? '' });

function changeSetView(row: history.ChangeSetRecord): ChangeSetView {
  return {
    id: row.id,
    projectId: row.projectId,
    version: row.version,
    source: row.source as ChangeSource,
    user: authorOf(row),
    apiKeyId: row.apiKeyId,
    createdAt: row.createdAt,
    summary: row.summary,
    revertOf: row.revertOf,
    revertedBy: row.revertedBy,
    imported: row.imported,
  };
}

function changeView(row: history.ChangeRecord): ChangeView {
  return {
    id: row.id,
    changeSetId: row.changeSetId,
    version: row.version,
    target: row.target as ChangeTarget,
    op: row.op as ChangeOp,
    groupId: row.groupId,
    entryId: row.entryId,
    language: row.language,
    key: row.key,
    before: row.before as ChangedFields,
    after: row.after as ChangedFields,
    user: authorOf(row),
    source: row.source as ChangeSource,
    createdAt: row.createdAt,
  };
}
