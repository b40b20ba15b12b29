/** Builds project content through the API, as a client would. */
import { expect } from 'vitest';
import type { TestServer } from './server.js';

/** POSTs and asserts 200; returns the created resource. */
export async function created<T = any>(server: TestServer, key: string, path: string, body: unknown): Promise<T> {
  const response = await server.api<T>('POST', path, { key, body });
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  return response.body;
}

/** A project with the given languages (default en → de, pt-BR). */
export async function createProject(
  server: TestServer,
  key: string,
  body: { name?: string; baseLanguage?: string; translationLanguages?: string[]; keyStyle?: string } = {},
) {
  return created(server, key, '/projects', { name: 'Test app', baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'], ...body });
}

/** A group in the project (top-level unless parentId). */
export async function createGroup(server: TestServer, key: string, projectId: string, technicalName: string, parentId?: string) {
  return created(server, key, `/projects/${projectId}/groups`, { technicalName, displayName: technicalName, parentId });
}

/** An entry in the group. */
export async function createEntry(server: TestServer, key: string, groupId: string, technicalName: string, baseTerm = `Text of ${technicalName}`) {
  return created(server, key, `/groups/${groupId}/entries`, { technicalName, baseTerm });
}

/** A chain of `depth` groups, each under the previous one (under `parentId` when given); root first. */
export async function createGroupChain(server: TestServer, key: string, projectId: string, depth: number, prefix = 'level', parentId?: string) {
  const chain: any[] = [];
  for (let level = 1; level <= depth; level++) {
    chain.push(await createGroup(server, key, projectId, `${prefix}${level}`, chain.at(-1)?.id ?? parentId));
  }
  return chain;
}

/** Sets the entry's translation in `language` and asserts 200. */
export async function setTranslation(server: TestServer, key: string, entryId: string, language: string, translation: string) {
  const response = await server.api('PUT', `/entries/${entryId}/translations`, { key, body: { language, translation } });
  expect(response.status, `${entryId}/${language}: ${response.text}`).toBe(200);
  return response.body;
}

/** A project (default languages unless `projectBody`) with one top-level group. */
export async function createProjectWithGroup(
  server: TestServer,
  key: string,
  groupName = 'main',
  projectBody: Parameters<typeof createProject>[2] = {},
) {
  const project = await createProject(server, key, projectBody);
  const group = await createGroup(server, key, project.id, groupName);
  return { project, group };
}

/**
 * Makes the user a confirmed member with `role`, straight in the store: there are no member routes
 * yet, and role tests of entries and translations need members now.
 */
export async function addMember(server: TestServer, projectId: string, userId: string, role: string, confirmed = true) {
  const now = new Date().toISOString();
  await server.store.db
    .insertInto('project_members')
    .values({ project_id: projectId, user_id: userId, role, confirmed_at: confirmed ? now : null, created_at: now })
    .execute();
}
