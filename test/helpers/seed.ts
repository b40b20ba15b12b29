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
  body: { name?: string; baseLanguage?: string; translationLanguages?: string[] } = {},
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
