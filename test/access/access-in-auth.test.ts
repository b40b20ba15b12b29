/**
 * On PostgreSQL a request's key check, quota count and access check are one statement: the project
 * of `/projects/:id…`, `/groups/:id…` or `/entries/:id…` is read with the key, exactly as the access
 * check reads it, and the access check of a read (GET) then needs no query of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProjectAccess } from '../../src/domain/access/project-access.js';
import { hashSecret } from '../../src/domain/keys/api-keys.js';
import { acceptedBefore } from '../../src/store/repositories/members.js';
import { findProjectForUser, type ProjectForUser } from '../../src/store/repositories/projects.js';
import { findKeyAndCountRequest, type ProjectTarget } from '../../src/store/repositories/usage.js';
import { TEST_DATABASE_URL } from '../helpers/dialects.js';
import { addMember, createEntry, createProjectWithGroup } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

const day = () => new Date().toISOString().slice(0, 10);

describe.skipIf(!TEST_DATABASE_URL)('access read with the key on postgres', () => {
  let server: TestServer;
  let owner: { id: string; apiKey: string };
  let first: { id: string; apiKey: string };
  let second: { id: string; apiKey: string };
  let stranger: { id: string; apiKey: string };
  let projectId: string;
  let groupId: string;
  let entryId: string;

  beforeAll(async () => {
    server = await startServer('postgres');
    owner = await server.user({ memberLimit: 1 });
    [first, second, stranger] = [await server.user(), await server.user(), await server.user()];
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    [projectId, groupId] = [project.id, group.id];
    entryId = (await createEntry(server, owner.apiKey, groupId, 'greeting')).id;
    // The owner's limit is one member: the second to accept is over it (read only).
    await addMember(server, projectId, first.id, 'editor');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await addMember(server, projectId, second.id, 'editor');
  });
  afterAll(() => server?.close());

  const readWithKey = async (apiKey: string, target: ProjectTarget) =>
    (await findKeyAndCountRequest(server.store.db, hashSecret(apiKey), new Date().toISOString(), day(), target))?.project;

  it('reads by project, group or entry id what the access check reads, for the owner, members and strangers', async () => {
    for (const user of [owner, first, second, stranger]) {
      const expected = await findProjectForUser(server.store.db, projectId, user.id);
      const before = expected?.memberConfirmedAt ? await acceptedBefore(server.store.db, projectId, user.id, expected.memberConfirmedAt) : 0;
      for (const target of [{ projectId }, { groupId }, { entryId }]) {
        expect(await readWithKey(user.apiKey, target)).toEqual({ ...expected, acceptedBefore: before });
      }
    }
    expect((await readWithKey(second.apiKey, { entryId }))!.acceptedBefore).toBe(1);
  });

  it('reads no project for an unknown id, and still checks the key and counts the request', async () => {
    const found = await findKeyAndCountRequest(server.store.db, hashSecret(first.apiKey), new Date().toISOString(), day(), { entryId: 'x'.repeat(10_000) });
    expect(found).toMatchObject({ userId: first.id });
    expect(found!.counted).toBeGreaterThan(0);
    expect(found!.project).toBeUndefined();
  });

  it('gives the access check its project without a query outside a transaction, and reads again inside one', async () => {
    const prefetchedProject = (await readWithKey(second.apiKey, { projectId }))!;
    const principal = { userId: second.id, prefetchedProject };
    // A database that fails every query: the check must not need one.
    const refuse = () => {
      throw new Error('queried');
    };
    const closed = { isTransaction: false, getExecutor: refuse, selectFrom: refuse } as never;
    const access = await loadProjectAccess(closed, principal, projectId);
    expect(access.capabilities.canReadEntries).toBe(true);
    expect(access.capabilities.canTranslate).toBe(false); // over the owner's limit
    // Another project's check, or one inside a transaction, reads the store.
    await expect(loadProjectAccess(closed, principal, 'another')).rejects.toThrow('queried');
    // A prefetched project that says the caller owns it: a check inside a transaction must not believe it.
    const claimsOwnership = { ...principal, prefetchedProject: { ...prefetchedProject, ownerId: second.id } as ProjectForUser };
    expect((await loadProjectAccess(server.store.db, claimsOwnership, projectId)).capabilities.canDeleteProject).toBe(true);
    await server.store.db.transaction().execute(async (trx) => {
      expect((await loadProjectAccess(trx, claimsOwnership, projectId)).capabilities.canDeleteProject).toBe(false);
    });
  });

  it('sees a role change at the next request (nothing is kept between requests)', async () => {
    const put = () => server.api('PUT', `/entries/${entryId}/translations`, { key: first.apiKey, body: { language: 'de', translation: 'Hallo' } });
    expect((await put()).status).toBe(200);
    await server.store.db.updateTable('project_members').set({ role: 'viewer' }).where('user_id', '=', first.id).execute();
    expect((await server.api('GET', `/entries/${entryId}`, { key: first.apiKey })).status).toBe(200);
    expect((await put()).status).toBe(403);
    await server.store.db.deleteFrom('project_members').where('user_id', '=', first.id).execute();
    expect((await server.api('GET', `/entries/${entryId}`, { key: first.apiKey })).status).toBe(404);
  });
});
