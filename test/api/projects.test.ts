import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServerWithUsers, type TestServer, type TestUser } from '../helpers/server.js';

describe.each(DIALECTS)('projects on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    ({ server, owner, stranger } = await startServerWithUsers(dialect));
  });
  afterAll(() => server?.close());

  it('creates a project owned by the caller, with null capabilities and memberQuota', async () => {
    const response = await server.api('POST', '/projects', {
      key: owner.apiKey,
      body: { name: 'Shop', baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Shop',
      ownerId: owner.id,
      owner: { id: owner.id, firstName: expect.any(String), lastName: expect.any(String) },
      baseLanguage: 'en',
      translationLanguages: ['de', 'pt-BR'],
      capabilities: null,
      memberQuota: null,
    });
    expect(response.body.id).toMatch(/^[a-z][a-z0-9]{23}$/);
    expect(Date.parse(response.body.createdAt)).not.toBeNaN();
  });

  it('gets a project with the owner capabilities and the member quota', async () => {
    const project = await createProject(server, owner.apiKey);
    const response = await server.api('GET', `/projects/${project.id}`, { key: owner.apiKey });
    expect(response.status).toBe(200);
    expect(response.body.capabilities).toEqual({
      isOwner: true,
      isOverLimit: false,
      canUpdateProject: true,
      canDeleteProject: true,
      canManageMembers: true,
      canAssignAdminRole: true,
      canTransferOwnership: true,
      canLeave: false,
      canReadEntries: true,
      canEditEntries: true,
      canTranslate: true,
      canReview: true,
      canReadGroups: true,
      canEditGroups: true,
      role: null,
    });
    expect(response.body.memberQuota).toEqual({ limit: 5, confirmedCount: 0, overLimitCount: 0 });
  });

  it('reports the owner member limit set at user creation in memberQuota', async () => {
    const limited = await server.user({ memberLimit: 2 });
    const project = await createProject(server, limited.apiKey);
    const response = await server.api('GET', `/projects/${project.id}`, { key: limited.apiKey });
    expect(response.body.memberQuota.limit).toBe(2);
  });

  it('lists only the caller\'s projects, paginated, without capabilities or memberQuota', async () => {
    const user = await server.user();
    const names = ['One', 'Two', 'Three'];
    for (const name of names) await createProject(server, user.apiKey, { name });
    await createProject(server, stranger.apiKey, { name: 'Other' });

    const all = await server.api('GET', '/projects', { key: user.apiKey });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ limit: 100, offset: 0, total: 3 });
    expect(all.body.result.map((p: any) => p.name)).toEqual(names);
    for (const item of all.body.result) {
      expect(item).not.toHaveProperty('capabilities');
      expect(item).not.toHaveProperty('memberQuota');
    }
    const page = await server.api('GET', '/projects?limit=1&offset=1', { key: user.apiKey });
    expect(page.body).toMatchObject({ limit: 1, offset: 1, total: 3 });
    expect(page.body.result.map((p: any) => p.name)).toEqual(['Two']);
  });

  it.each([
    ['limit=0'], ['limit=101'], ['limit=-1'], ['limit=abc'], ['limit=1.5'], ['offset=-1'], ['offset=x'],
  ])('refuses the page query %s with 400', async (query) => {
    const response = await server.api('GET', `/projects?${query}`, { key: owner.apiKey });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, code: 'ERR_VALIDATION' });
    expect(response.body.details[0].path).toMatch(/^\/querystring\/(limit|offset)$/);
  });

  it.each([
    ['name too short', { name: 'ab', baseLanguage: 'en', translationLanguages: [] }, '/body/name'],
    ['name too long', { name: 'x'.repeat(33), baseLanguage: 'en', translationLanguages: [] }, '/body/name'],
    ['name blank', { name: '    ', baseLanguage: 'en', translationLanguages: [] }, '/body/name'],
    ['name missing', { baseLanguage: 'en', translationLanguages: [] }, '/body/name'],
    ['unknown base language', { name: 'Abc', baseLanguage: 'xx', translationLanguages: [] }, '/body/baseLanguage'],
    ['wrong-case locale', { name: 'Abc', baseLanguage: 'en', translationLanguages: ['pt-br'] }, '/body/translationLanguages/0'],
    ['base repeated', { name: 'Abc', baseLanguage: 'en', translationLanguages: ['de', 'en'] }, '/body/translationLanguages/1'],
    ['duplicate language', { name: 'Abc', baseLanguage: 'en', translationLanguages: ['de', 'de'] }, '/body/translationLanguages/1'],
    ['languages missing', { name: 'Abc', baseLanguage: 'en' }, '/body/translationLanguages'],
    ['number as name', { name: 12345, baseLanguage: 'en', translationLanguages: [] }, '/body/name'],
    ['unknown field', { name: 'Abc', baseLanguage: 'en', translationLanguages: [], color: 'red' }, '/body/color'],
  ])('refuses a create with %s (400 at the field)', async (_label, body, path) => {
    const response = await server.api('POST', '/projects', { key: owner.apiKey, body });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('ERR_VALIDATION');
    expect(response.body.details?.map((d: any) => d.path) ?? []).toContain(path);
  });

  it('counts name length in code points (32 emoji fit)', async () => {
    const name = '😀'.repeat(32);
    const response = await server.api('POST', '/projects', { key: owner.apiKey, body: { name, baseLanguage: 'en', translationLanguages: [] } });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe(name);
  });

  it('suggests the canonical spelling of a near-miss locale', async () => {
    const response = await server.api('POST', '/projects', { key: owner.apiKey, body: { name: 'Abc', baseLanguage: 'en_US', translationLanguages: [] } });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('en-US');
  });

  it('patches only the given fields; null leaves a field unchanged', async () => {
    const project = await createProject(server, owner.apiKey, { name: 'Before' });
    const renamed = await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { name: 'After', baseLanguage: null } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'After', baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'] });
    expect(renamed.body.capabilities.isOwner).toBe(true);
    const relanguaged = await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { translationLanguages: ['fr'] } });
    expect(relanguaged.body).toMatchObject({ name: 'After', translationLanguages: ['fr'] });
    const rebased = await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { baseLanguage: 'de' } });
    expect(rebased.body).toMatchObject({ baseLanguage: 'de', translationLanguages: ['fr'] });
  });

  it.each([
    ['an empty body', {}],
    ['only nulls', { name: null, baseLanguage: null, translationLanguages: null }],
  ])('refuses a patch with %s: nothing to update', async (_label, body) => {
    const project = await createProject(server, owner.apiKey);
    const response = await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('ERR_VALIDATION');
    expect(response.body.message).toMatch(/nothing to update/);
  });

  it('refuses a patch that makes the base language a translation language', async () => {
    const project = await createProject(server, owner.apiKey);
    const response = await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { baseLanguage: 'de' } });
    expect(response.status).toBe(400);
  });

  it('hides another user\'s project behind 404 ERR_PROJECT_NOT_FOUND on every project route', async () => {
    const project = await createProject(server, owner.apiKey);
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Mine now' }], ['DELETE']] as const) {
      const response = await server.api(method, `/projects/${project.id}`, { key: stranger.apiKey, body });
      expect(response.status, method).toBe(404);
      expect(response.body).toEqual({ statusCode: 404, code: 'ERR_PROJECT_NOT_FOUND', message: expect.any(String) });
    }
    const still = await server.api('GET', `/projects/${project.id}`, { key: owner.apiKey });
    expect(still.body.name).toBe(project.name);
  });

  it('answers 404 ERR_PROJECT_NOT_FOUND for an unknown id', async () => {
    const response = await server.api('GET', '/projects/doesnotexist', { key: owner.apiKey });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('ERR_PROJECT_NOT_FOUND');
  });

  it('deletes a project with everything in it', async () => {
    const project = await createProject(server, owner.apiKey);
    const group = await server.api('POST', `/projects/${project.id}/groups`, { key: owner.apiKey, body: { technicalName: 'auth', displayName: 'Auth' } });
    const entry = await server.api('POST', `/groups/${group.body.id}/entries`, { key: owner.apiKey, body: { technicalName: 'login', baseTerm: 'Log in' } });
    await server.api('PUT', `/entries/${entry.body.id}/translations`, { key: owner.apiKey, body: { language: 'de', translation: 'Anmelden' } });

    const deleted = await server.api('DELETE', `/projects/${project.id}`, { key: owner.apiKey });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await server.api('GET', `/projects/${project.id}`, { key: owner.apiKey })).status).toBe(404);
    expect((await server.api('GET', `/groups/${group.body.id}`, { key: owner.apiKey })).status).toBe(404);
    expect((await server.api('GET', `/entries/${entry.body.id}`, { key: owner.apiKey })).status).toBe(404);
    const leftovers = await server.store.db.selectFrom('translations').select('id').where('entry_id', '=', entry.body.id).execute();
    expect(leftovers).toEqual([]);
  });
});
