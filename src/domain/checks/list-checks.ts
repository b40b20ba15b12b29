/** `GET /projects/{id}/checks`: a page of the project's message problems, computed once per content version. */
import type { Kysely } from 'kysely';
import { projectNotFound, validationError } from '../../errors.js';
import { openExportSource } from '../../exports/export-source.js';
import { inReadSnapshot } from '../../store/read-snapshot.js';
import type { Database, Db } from '../../store/schema.js';
import { loadProjectAccess, requireCapability, type Principal } from '../access/project-access.js';
import type { ContentCaches } from '../shared/content-caches.js';
import type { Page } from '../shared/page.js';
import { messageProblems, problemsBytes, type CheckKind, type MessageProblem } from './message-problems.js';

export interface ChecksQuery {
  language?: string | undefined;
  check?: CheckKind | undefined;
  limit: number;
  offset: number;
}

/**
 * Problems of a project's current version: an editor pages through them, CI pulls ask again and again.
 * One project's list may fill half of it: a large project's list (84,000 problems, ~10 MB by problemsBytes) took up to
 * 0.8 s to make again on every page when only an eighth was allowed.
 */

/** How many times a project's problems were computed rather than found kept (tests read it). */
export const checksComputed = { count: 0 };

/**
 * The caller's page of problems (canReadEntries). The list is made from one consistent snapshot read
 * through `reader` (the export's read), then kept for the project's content version.
 */
export async function listChecks(db: Db, reader: Kysely<Database>, caches: ContentCaches, principal: Principal, projectId: string, query: ChecksQuery): Promise<Page<MessageProblem>> {
  const access = await loadProjectAccess(db, principal, projectId);
  requireCapability(access, 'canReadEntries');
  const { project } = access;
  if (query.language !== undefined && query.language !== project.baseLanguage && !project.translationLanguages.includes(query.language)) {
    throw validationError(`${query.language} is not a language of this project`, '/querystring/language');
  }
  const all = await problemsOf(reader, caches, projectId, project.contentVersion);
  const matching = all.filter((problem) => (query.language === undefined || problem.language === query.language) && (query.check === undefined || problem.check === query.check));
  return { limit: query.limit, offset: query.offset, total: matching.length, result: matching.slice(query.offset, query.offset + query.limit) };
}

async function problemsOf(reader: Kysely<Database>, caches: ContentCaches, projectId: string, version: number): Promise<MessageProblem[]> {
  const key = `checks:${projectId}`;
  const kept = caches.problems.get<MessageProblem[]>(key, projectId, version);
  if (kept) return kept;
  checksComputed.count += 1;
  const { problems, version: read } = await inReadSnapshot(reader, async (trx) => {
    const source = await openExportSource(trx, projectId, caches.exportRows);
    if (!source) throw projectNotFound();
    return { problems: await messageProblems(source), version: source.project.contentVersion };
  });
  // Kept under the version the snapshot read, which may be newer than the access check's.
  caches.problems.set(key, projectId, read, problems, problemsBytes(problems));
  return problems;
}
