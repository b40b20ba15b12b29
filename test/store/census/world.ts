/**
 * What the census's cases (census/*-cases.ts) are made of: the callers, the world each case starts from,
 * and a case: what it calls, as whom, the answer's status and how many objects the call changes as the
 * API shows them (census.test.ts derives which ones and checks what was recorded).
 */
import { expect } from 'vitest';
import type { CensusChange } from '../../helpers/content-snapshot.js';
import type { ApiResponse, TestServer } from '../../helpers/server.js';
import { listChangesOfSet } from '../../../src/store/repositories/revert-reads.js';

export type CallerName = 'owner' | 'editor' | 'translator' | 'viewer' | 'web';

export interface Caller {
  userId: string;
  /** the API key the calls carry (null for the web app's session) */
  keyId: string | null;
  source: 'api' | 'web';
  call(method: string, path: string, options?: { body?: unknown; rawBody?: Uint8Array; headers?: Record<string, string> }): Promise<ApiResponse>;
}

interface Named {
  id: string;
}

/** The project each case starts from: main (title; sub: greeting, with a de translation) and other; with topLevel, the top-level key appName. */
export interface World {
  project: Named;
  main: Named;
  sub: Named;
  other: Named;
  greeting: Named;
  title: Named;
  topLevel?: Named;
  appName?: Named;
}

export interface CensusContext {
  server: TestServer;
  world: World;
  callers: Record<CallerName, Caller>;
  ownerKey: string;
}

export interface Prepared {
  caller?: CallerName;
  /** the change set's source when not the caller's own (an import, a revert) */
  source?: 'import' | 'revert';
  /** the set a revert reverts */
  revertOf?: string;
  /** changes the call makes that the API does not show (an entry's ARB metadata, which only the flutter export writes) */
  unseen?: CensusChange[];
  request: { method: string; path: string; body?: unknown; rawBody?: Uint8Array; headers?: Record<string, string> };
  /** further checks of the answer, with the call's change set (null when it recorded none) */
  check?(response: ApiResponse, set: { id: string; summary: { created: number; updated: number; deleted: number } } | null): void | Promise<void>;
}

export interface CensusCase {
  /** `METHOD /template` as the OpenAPI document names it */
  operation: string;
  name: string;
  status: number;
  /** how many objects the call changes (0: it must record nothing) */
  changes: number;
  world?: { topLevel?: boolean; empty?: boolean };
  /** sets up what the call needs (through the API, before the census reads the project) and names the call */
  prepare(context: CensusContext): Promise<Prepared>;
}

/** A translation ETag no save ever had. */
export const STALE = '"2000-01-01T00:00:00.000Z"';
export const NO_SUCH_ID = 'nosuchid00000000000000000';

export const PUT_TRANSLATION = 'PUT /entries/{id}/translations';
export const DELETE_TRANSLATION = 'DELETE /entries/{id}/translations';
export const CREATE_ENTRY = 'POST /groups/{id}/entries';
export const PATCH_ENTRY = 'PATCH /entries/{id}';
export const DELETE_ENTRY = 'DELETE /entries/{id}';
export const CREATE_GROUP = 'POST /projects/{id}/groups';
export const PATCH_GROUP = 'PATCH /groups/{id}';
export const DELETE_GROUP = 'DELETE /groups/{id}';
export const PATCH_PROJECT = 'PATCH /projects/{id}';
export const IMPORT = 'POST /projects/{id}/import';

/** The change set of the project's latest write, and its changes' ids. */
export async function latestSet(server: TestServer, projectId: string): Promise<{ id: string; changeIds: string[] }> {
  const set = await server.store.db.selectFrom('change_sets').selectAll().where('project_id', '=', projectId).orderBy('version', 'desc').limit(1).executeTakeFirstOrThrow();
  const changes = await listChangesOfSet(server.store.db, set);
  return { id: set.id, changeIds: changes.map((change) => change.id) };
}

/** A write through the API as the owner, asserting it succeeded; answers its change set. */
export async function written(context: CensusContext, method: string, path: string, body?: unknown) {
  const response = await context.server.api(method, path, { key: context.ownerKey, ...(body === undefined ? {} : { body }) });
  expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
  return latestSet(context.server, context.world.project.id);
}

/** An overwrite import of the world: main.title's base term, greeting's de updated, greeting's pt-BR created. */
export const overwriteImport = (context: CensusContext) =>
  written(context, 'POST', `/projects/${context.world.project.id}/import?format=json&mode=overwrite`, {
    en: { main: { title: 'Heading' } },
    de: { main: { sub: { greeting: 'Servus' } } },
    'pt-BR': { main: { sub: { greeting: 'Oi' } } },
  });
