import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, created, createEntry, createGroup, createGroupChain, createProject, setTranslation } from '../helpers/seed.js';
import { startServerWithUsers, type ApiResponse, type TestServer, type TestUser } from '../helpers/server.js';

/** An error body without validation details: exactly the contract's three fields. */
const errorBody = (statusCode: number, code: string) => ({ statusCode, code, message: expect.any(String) });

function expectError(response: ApiResponse, statusCode: number, code: string): void {
  expect(response.status, response.text).toBe(statusCode);
  expect(response.body).toEqual(errorBody(statusCode, code));
}

function expectValidationError(response: ApiResponse, path: string): void {
  expect(response.status, response.text).toBe(400);
  expect(response.body).toMatchObject(errorBody(400, 'ERR_VALIDATION'));
  expect(response.body.details?.map((d: any) => d.path) ?? []).toContain(path);
}

const CUID = /^[a-z][a-z0-9]{23}$/;

describe.each(DIALECTS)('groups on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    ({ server, owner, stranger } = await startServerWithUsers(dialect));
  });
  afterAll(() => server?.close());

  const newProject = () => createProject(server, owner.apiKey);
  const post = (projectId: string, body: unknown, key = owner.apiKey) => server.api('POST', `/projects/${projectId}/groups`, { key, body });
  const patch = (groupId: string, body: unknown, key = owner.apiKey) => server.api('PATCH', `/groups/${groupId}`, { key, body });
  const get = (groupId: string, key = owner.apiKey) => server.api('GET', `/groups/${groupId}`, { key });
  const list = (projectId: string, query = '', key = owner.apiKey) => server.api('GET', `/projects/${projectId}/groups${query}`, { key });
  const summary = async (projectId: string) => {
    const response = await server.api('GET', `/projects/${projectId}/groups/summary`, { key: owner.apiKey });
    expect(response.status, response.text).toBe(200);
    return response.body as any[];
  };
  /** The project's tree as "root.child.grandchild" paths, in summary order. */
  const paths = async (projectId: string) =>
    (await summary(projectId)).map((s) => [...s.breadcrumbNames, s.displayName].join('.'));
  const groupRows = (projectId: string) =>
    server.store.db.selectFrom('groups').select(['id', 'parent_id', 'technical_name']).where('project_id', '=', projectId).execute();
  const contentVersion = async (projectId: string) =>
    Number((await server.store.db.selectFrom('projects').select('content_version').where('id', '=', projectId).executeTakeFirstOrThrow()).content_version);

  describe('create and read', () => {
    it('creates a top-level group and answers exactly the Group shape', async () => {
      const project = await newProject();
      const response = await post(project.id, { technicalName: 'auth', displayName: 'Authentication' });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({
        id: expect.stringMatching(CUID),
        projectId: project.id,
        parentId: null,
        technicalName: 'auth',
        displayName: 'Authentication',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      });
      const fetched = await get(response.body.id);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(response.body);
    });

    it('creates a top-level group when parentId is null', async () => {
      const project = await newProject();
      const response = await post(project.id, { technicalName: 'auth', displayName: 'Auth', parentId: null });
      expect(response.status, response.text).toBe(200);
      expect(response.body.parentId).toBeNull();
    });

    it('creates a nested group under a parent of the same project', async () => {
      const project = await newProject();
      const parent = await createGroup(server, owner.apiKey, project.id, 'auth');
      const response = await post(project.id, { technicalName: 'login', displayName: 'Login', parentId: parent.id });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({
        id: expect.stringMatching(CUID),
        projectId: project.id,
        parentId: parent.id,
        technicalName: 'login',
        displayName: 'Login',
        createdAt: expect.any(String),
      });
      expect((await get(response.body.id)).body).toEqual(response.body);
    });

    it('lists top-level groups without parentId and only the direct children with parentId', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const billing = await createGroup(server, owner.apiKey, project.id, 'billing');
      const login = await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      const form = await createGroup(server, owner.apiKey, project.id, 'form', login.id);
      const logout = await createGroup(server, owner.apiKey, project.id, 'logout', auth.id);

      const top = await list(project.id);
      expect(top.status).toBe(200);
      expect(top.body).toEqual({ limit: 100, offset: 0, total: 2, result: [auth, billing] });
      expect((await list(project.id, `?parentId=${auth.id}`)).body).toEqual({ limit: 100, offset: 0, total: 2, result: [login, logout] });
      expect((await list(project.id, `?parentId=${login.id}`)).body).toEqual({ limit: 100, offset: 0, total: 1, result: [form] });
      expect((await list(project.id, `?parentId=${billing.id}`)).body).toEqual({ limit: 100, offset: 0, total: 0, result: [] });
    });

    it('paginates the list with limit and offset and reports the total', async () => {
      const project = await newProject();
      const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
      for (const name of names) await createGroup(server, owner.apiKey, project.id, name);

      const page = await list(project.id, '?limit=2&offset=1');
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ limit: 2, offset: 1, total: 5 });
      expect(page.body.result.map((g: any) => g.technicalName)).toEqual(['bravo', 'charlie']);
      const last = await list(project.id, '?limit=2&offset=4');
      expect(last.body.result.map((g: any) => g.technicalName)).toEqual(['echo']);
      const beyond = await list(project.id, '?offset=10');
      expect(beyond.body).toEqual({ limit: 100, offset: 10, total: 5, result: [] });
    });

    it.each([['limit=0'], ['limit=101'], ['limit=-1'], ['limit=abc'], ['limit=1.5'], ['offset=-1'], ['offset=x']])(
      'refuses the list query %s with 400 ERR_VALIDATION',
      async (query) => {
        const project = await newProject();
        const response = await list(project.id, `?${query}`);
        expectValidationError(response, `/querystring/${query.split('=')[0]}`);
      },
    );

    it('answers 404 ERR_NOT_FOUND for an unknown parentId in the list', async () => {
      const project = await newProject();
      expectError(await list(project.id, '?parentId=nosuchgroup'), 404, 'ERR_NOT_FOUND');
    });

    it('answers 404 ERR_NOT_FOUND for a parentId of another project in the list', async () => {
      const project = await newProject();
      const other = await newProject();
      const foreign = await createGroup(server, owner.apiKey, other.id, 'auth');
      expectError(await list(project.id, `?parentId=${foreign.id}`), 404, 'ERR_NOT_FOUND');
    });

    it('answers 404 ERR_PROJECT_NOT_FOUND for an unknown project on list, summary and create', async () => {
      expectError(await list('nosuchproject'), 404, 'ERR_PROJECT_NOT_FOUND');
      expectError(await server.api('GET', '/projects/nosuchproject/groups/summary', { key: owner.apiKey }), 404, 'ERR_PROJECT_NOT_FOUND');
      expectError(await post('nosuchproject', { technicalName: 'auth', displayName: 'Auth' }), 404, 'ERR_PROJECT_NOT_FOUND');
    });

    it('hides another user\'s project behind 404 ERR_PROJECT_NOT_FOUND on list, summary and create', async () => {
      const project = await newProject();
      const group = await createGroup(server, owner.apiKey, project.id, 'auth');
      expectError(await list(project.id, '', stranger.apiKey), 404, 'ERR_PROJECT_NOT_FOUND');
      expectError(await list(project.id, `?parentId=${group.id}`, stranger.apiKey), 404, 'ERR_PROJECT_NOT_FOUND');
      expectError(await server.api('GET', `/projects/${project.id}/groups/summary`, { key: stranger.apiKey }), 404, 'ERR_PROJECT_NOT_FOUND');
      expectError(await post(project.id, { technicalName: 'intruder', displayName: 'Intruder' }, stranger.apiKey), 404, 'ERR_PROJECT_NOT_FOUND');
      expect((await groupRows(project.id)).map((g) => g.technical_name)).toEqual(['auth']);
    });

    it('answers 404 ERR_NOT_FOUND for a create under an unknown parent or a parent of another project', async () => {
      const project = await newProject();
      const other = await newProject();
      const foreign = await createGroup(server, owner.apiKey, other.id, 'auth');
      expectError(await post(project.id, { technicalName: 'login', displayName: 'Login', parentId: 'nosuchgroup' }), 404, 'ERR_NOT_FOUND');
      expectError(await post(project.id, { technicalName: 'login', displayName: 'Login', parentId: foreign.id }), 404, 'ERR_NOT_FOUND');
      expect(await groupRows(project.id)).toEqual([]);
      expect(await groupRows(other.id)).toHaveLength(1);
    });
  });

  describe('validation', () => {
    it.each([
      ['technicalName starting upper-case', { technicalName: 'Auth', displayName: 'Auth' }, '/body/technicalName'],
      ['technicalName with a hyphen', { technicalName: 'auth-x', displayName: 'Auth' }, '/body/technicalName'],
      ['technicalName starting with a digit', { technicalName: '1abc', displayName: 'Auth' }, '/body/technicalName'],
      ['technicalName with a dot', { technicalName: 'a.b', displayName: 'Auth' }, '/body/technicalName'],
      ['technicalName with a space', { technicalName: 'a b', displayName: 'Auth' }, '/body/technicalName'],
      ['technicalName with a non-ASCII letter', { technicalName: 'straße', displayName: 'Auth' }, '/body/technicalName'],
      ['technicalName empty', { technicalName: '', displayName: 'Auth' }, '/body/technicalName'],
      ['technicalName of 101 characters', { technicalName: 'a'.repeat(101), displayName: 'Auth' }, '/body/technicalName'],
      ['technicalName missing', { displayName: 'Auth' }, '/body/technicalName'],
      ['technicalName a number', { technicalName: 42, displayName: 'Auth' }, '/body/technicalName'],
      ['technicalName null', { technicalName: null, displayName: 'Auth' }, '/body/technicalName'],
      ['displayName missing', { technicalName: 'auth' }, '/body/displayName'],
      ['displayName empty', { technicalName: 'auth', displayName: '' }, '/body/displayName'],
      ['displayName blank', { technicalName: 'auth', displayName: '   ' }, '/body/displayName'],
      ['displayName of 201 characters', { technicalName: 'auth', displayName: 'x'.repeat(201) }, '/body/displayName'],
      ['displayName a number', { technicalName: 'auth', displayName: 7 }, '/body/displayName'],
      ['parentId a number', { technicalName: 'auth', displayName: 'Auth', parentId: 5 }, '/body/parentId'],
      ['an unknown field', { technicalName: 'auth', displayName: 'Auth', color: 'red' }, '/body/color'],
    ])('refuses a create with %s (400 ERR_VALIDATION at the field)', async (_label, body, path) => {
      const project = await newProject();
      expectValidationError(await post(project.id, body), path);
      expect(await groupRows(project.id)).toEqual([]);
    });

    it('refuses a create whose body is not an object', async () => {
      const project = await newProject();
      const response = await post(project.id, ['auth']);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('ERR_VALIDATION');
    });

    it('accepts the length boundaries: technicalName of 1 and 100, displayName of 200 code points', async () => {
      const project = await newProject();
      const short = await post(project.id, { technicalName: 'a', displayName: 'x' });
      expect(short.status, short.text).toBe(200);
      const long = await post(project.id, { technicalName: `a${'B1'.repeat(49)}c`, displayName: '😀'.repeat(200) });
      expect(long.status, long.text).toBe(200);
      expect(long.body.technicalName).toHaveLength(100);
      expect(long.body.displayName).toBe('😀'.repeat(200));
    });

    it.each([
      ['technicalName starting upper-case', { technicalName: 'Auth' }, '/body/technicalName'],
      ['technicalName empty', { technicalName: '' }, '/body/technicalName'],
      ['technicalName of 101 characters', { technicalName: 'a'.repeat(101) }, '/body/technicalName'],
      ['technicalName a number', { technicalName: 1 }, '/body/technicalName'],
      ['displayName blank', { displayName: ' ' }, '/body/displayName'],
      ['displayName of 201 characters', { displayName: 'x'.repeat(201) }, '/body/displayName'],
      ['parentId a number', { parentId: 5 }, '/body/parentId'],
      ['an unknown field', { displayName: 'Ok', color: 'red' }, '/body/color'],
    ])('refuses a patch with %s (400 ERR_VALIDATION at the field)', async (_label, body, path) => {
      const project = await newProject();
      const group = await createGroup(server, owner.apiKey, project.id, 'auth');
      expectValidationError(await patch(group.id, body), path);
      expect((await get(group.id)).body).toEqual(group);
    });
  });

  describe('name conflicts', () => {
    it('refuses a duplicate technicalName among top-level groups with 409 ERR_CONFLICT', async () => {
      const project = await newProject();
      await createGroup(server, owner.apiKey, project.id, 'auth');
      expectError(await post(project.id, { technicalName: 'auth', displayName: 'Again' }), 409, 'ERR_CONFLICT');
      expect(await groupRows(project.id)).toHaveLength(1);
    });

    it('refuses a duplicate technicalName among siblings under a parent with 409 ERR_CONFLICT', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      expectError(await post(project.id, { technicalName: 'login', displayName: 'Again', parentId: auth.id }), 409, 'ERR_CONFLICT');
      expect((await list(project.id, `?parentId=${auth.id}`)).body.total).toBe(1);
    });

    it('allows one technicalName under different parents, at the top level and in another project', async () => {
      const project = await newProject();
      const other = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const billing = await createGroup(server, owner.apiKey, project.id, 'billing');
      for (const parentId of [auth.id, billing.id, null]) {
        const response = await post(project.id, { technicalName: 'form', displayName: 'Form', parentId });
        expect(response.status, response.text).toBe(200);
      }
      expect((await post(other.id, { technicalName: 'auth', displayName: 'Auth' })).status).toBe(200);
    });

    it('refuses a sub-group named like an entry of its parent group (one name space per parent)', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      await createEntry(server, owner.apiKey, auth.id, 'login');
      expectError(await post(project.id, { technicalName: 'login', displayName: 'Login', parentId: auth.id }), 409, 'ERR_CONFLICT');
      expect((await list(project.id, `?parentId=${auth.id}`)).body.total).toBe(0);
      // An entry's name binds only its own group: a top-level group may use it.
      expect((await post(project.id, { technicalName: 'login', displayName: 'Login' })).status).toBe(200);
    });

    it('refuses an entry named like a sub-group of its group (one name space per parent)', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      const response = await server.api('POST', `/groups/${auth.id}/entries`, { key: owner.apiKey, body: { technicalName: 'login', baseTerm: 'Log in' } });
      expectError(response, 409, 'ERR_CONFLICT');
      const entries = await server.api('GET', `/groups/${auth.id}/entries`, { key: owner.apiKey });
      expect(entries.body.total).toBe(0);
    });
  });

  describe('depth limit', () => {
    it('allows a chain of 10 nested groups and refuses the 11th with 400 ERR_HIERARCHY_LIMIT', async () => {
      const project = await newProject();
      const chain = await createGroupChain(server, owner.apiKey, project.id, 10);
      const tenth = chain[9];
      expect(tenth.parentId).toBe(chain[8].id);
      const eleventh = await post(project.id, { technicalName: 'level11', displayName: 'Level 11', parentId: tenth.id });
      expectError(eleventh, 400, 'ERR_HIERARCHY_LIMIT');
      expect((await list(project.id, `?parentId=${tenth.id}`)).body.total).toBe(0);
      // The ninth level still takes more children: the limit is about depth, not about the chain.
      expect((await post(project.id, { technicalName: 'sibling', displayName: 'Sibling', parentId: chain[8].id })).status).toBe(200);
    });
  });

  describe('summary', () => {
    it('lists every group root first, depth first, with breadcrumbs and breadcrumbNames', async () => {
      const project = await newProject();
      const make = (technicalName: string, displayName: string, parentId?: string) =>
        created(server, owner.apiKey, `/projects/${project.id}/groups`, { technicalName, displayName, parentId });
      const billing = await make('billing', 'Billing');
      const auth = await make('auth', 'Authentication');
      const login = await make('login', 'Log in', auth.id);
      const form = await make('form', 'Form', login.id);
      const errors = await make('errors', 'Errors', auth.id);
      const invoices = await make('invoices', 'Invoices', billing.id);

      const response = await server.api('GET', `/projects/${project.id}/groups/summary`, { key: owner.apiKey });
      expect(response.status).toBe(200);
      const item = (group: any, ancestors: any[]) => ({
        id: group.id,
        displayName: group.displayName,
        technicalName: group.technicalName,
        breadcrumbs: ancestors.map((a) => a.id),
        breadcrumbNames: ancestors.map((a) => a.displayName),
      });
      expect(response.body).toEqual([
        item(auth, []),
        item(errors, [auth]),
        item(login, [auth]),
        item(form, [auth, login]),
        item(billing, []),
        item(invoices, [billing]),
      ]);
    });

    it('answers an empty array for a project without groups', async () => {
      const project = await newProject();
      expect(await summary(project.id)).toEqual([]);
    });

    it('includes all groups, beyond the default page size', async () => {
      const project = await newProject();
      const parent = await createGroup(server, owner.apiKey, project.id, 'many');
      await Promise.all(Array.from({ length: 105 }, (_, i) => createGroup(server, owner.apiKey, project.id, `item${i}`, parent.id)));
      const items = await summary(project.id);
      expect(items).toHaveLength(106);
      expect(items.slice(1).every((s) => s.breadcrumbs.length === 1 && s.breadcrumbs[0] === parent.id)).toBe(true);
    });
  });

  describe('update', () => {
    it('renames displayName and technicalName, keeping id, parent and createdAt', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const login = await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      const response = await patch(login.id, { technicalName: 'signIn', displayName: 'Sign in' });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ ...login, technicalName: 'signIn', displayName: 'Sign in' });
      expect((await get(login.id)).body).toEqual(response.body);
    });

    it('leaves a field given as null unchanged', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const renamed = await patch(auth.id, { displayName: 'Authentication', technicalName: null });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body).toEqual({ ...auth, displayName: 'Authentication' });
      const retechnical = await patch(auth.id, { technicalName: 'access', displayName: null });
      expect(retechnical.body).toEqual({ ...auth, displayName: 'Authentication', technicalName: 'access' });
    });

    it('keeps the parent when parentId is omitted and accepts the current name', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const login = await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      const response = await patch(login.id, { technicalName: 'login', displayName: 'Login page' });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ ...login, displayName: 'Login page' });
    });

    it.each([
      ['an empty body', {}],
      ['a null displayName', { displayName: null }],
      ['only nulls of required fields', { technicalName: null, displayName: null }],
    ])('refuses a patch with %s: 400 nothing to update', async (_label, body) => {
      const project = await newProject();
      const group = await createGroup(server, owner.apiKey, project.id, 'auth');
      const response = await patch(group.id, body);
      expectError(response, 400, 'ERR_VALIDATION');
      expect(response.body.message).toMatch(/nothing to update/);
    });

    it('moves a group with its subtree under another group', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const billing = await createGroup(server, owner.apiKey, project.id, 'billing');
      const login = await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      await createGroup(server, owner.apiKey, project.id, 'form', login.id);

      const response = await patch(login.id, { parentId: billing.id });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ ...login, parentId: billing.id });
      expect((await list(project.id, `?parentId=${auth.id}`)).body.total).toBe(0);
      expect((await list(project.id, `?parentId=${billing.id}`)).body.result).toEqual([response.body]);
      expect(await paths(project.id)).toEqual(['auth', 'billing', 'billing.login', 'billing.login.form']);
    });

    it('moves a group to the top level with parentId null', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const login = await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      const response = await patch(login.id, { parentId: null });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ ...login, parentId: null });
      expect((await list(project.id)).body.result.map((g: any) => g.id)).toEqual([auth.id, login.id]);
    });

    it('accepts parentId null for a group already at the top level, changing nothing', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const response = await patch(auth.id, { parentId: null });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual(auth);
    });

    it('moves and renames in one request, checking the name under the new parent', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const billing = await createGroup(server, owner.apiKey, project.id, 'billing');
      const login = await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      await createGroup(server, owner.apiKey, project.id, 'signIn', auth.id);
      await createGroup(server, owner.apiKey, project.id, 'invoices', billing.id);

      expectError(await patch(login.id, { parentId: billing.id, technicalName: 'invoices' }), 409, 'ERR_CONFLICT');
      const response = await patch(login.id, { parentId: billing.id, technicalName: 'signIn' });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ ...login, parentId: billing.id, technicalName: 'signIn' });
    });

    it('refuses to move a group under itself with 409 ERR_CONFLICT', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      expectError(await patch(auth.id, { parentId: auth.id }), 409, 'ERR_CONFLICT');
      expect((await get(auth.id)).body).toEqual(auth);
    });

    it('refuses to move a group under its own descendant with 409 ERR_CONFLICT, leaving the tree unchanged', async () => {
      const project = await newProject();
      const chain = await createGroupChain(server, owner.apiKey, project.id, 4);
      const before = await summary(project.id);
      for (const descendant of chain.slice(1)) {
        expectError(await patch(chain[0].id, { parentId: descendant.id }), 409, 'ERR_CONFLICT');
      }
      expectError(await patch(chain[1].id, { parentId: chain[3].id }), 409, 'ERR_CONFLICT');
      expect(await summary(project.id)).toEqual(before);
      expect((await get(chain[0].id)).body).toEqual(chain[0]);
    });

    it('refuses a move that would nest the moved subtree deeper than 10 with 400 ERR_HIERARCHY_LIMIT', async () => {
      const project = await newProject();
      const target = await createGroupChain(server, owner.apiKey, project.id, 5, 'target');
      const moved = await createGroupChain(server, owner.apiKey, project.id, 6, 'moved');
      // moved1 (height 6) under target5 (depth 5) would put moved6 at depth 11.
      expectError(await patch(moved[0].id, { parentId: target[4].id }), 400, 'ERR_HIERARCHY_LIMIT');
      expect((await get(moved[0].id)).body).toEqual(moved[0]);
      // Under target4 its deepest group lands at exactly 10.
      const response = await patch(moved[0].id, { parentId: target[3].id });
      expect(response.status, response.text).toBe(200);
      const deepest = (await summary(project.id)).find((s) => s.id === moved[5].id);
      expect(deepest.breadcrumbs).toHaveLength(9);
    });

    it('refuses a move into a parent where a group already has the name (409)', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const billing = await createGroup(server, owner.apiKey, project.id, 'billing');
      const authForm = await createGroup(server, owner.apiKey, project.id, 'form', auth.id);
      await createGroup(server, owner.apiKey, project.id, 'form', billing.id);
      expectError(await patch(authForm.id, { parentId: billing.id }), 409, 'ERR_CONFLICT');
      expect((await get(authForm.id)).body).toEqual(authForm);
    });

    it('refuses a move into a parent where an entry already has the name (409)', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const billing = await createGroup(server, owner.apiKey, project.id, 'billing');
      const form = await createGroup(server, owner.apiKey, project.id, 'form', auth.id);
      await createEntry(server, owner.apiKey, billing.id, 'form');
      expectError(await patch(form.id, { parentId: billing.id }), 409, 'ERR_CONFLICT');
      expect((await get(form.id)).body).toEqual(form);
    });

    it('refuses a move to the top level when a top-level group has the name (409)', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const nested = await createGroup(server, owner.apiKey, project.id, 'auth', auth.id);
      expectError(await patch(nested.id, { parentId: null }), 409, 'ERR_CONFLICT');
      expect((await get(nested.id)).body).toEqual(nested);
    });

    it('answers 404 ERR_NOT_FOUND for a move under an unknown group or a group of another project', async () => {
      const project = await newProject();
      const other = await newProject();
      const strangers = await createProject(server, stranger.apiKey);
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const foreign = await createGroup(server, owner.apiKey, other.id, 'billing');
      const strangersGroup = await createGroup(server, stranger.apiKey, strangers.id, 'billing');
      for (const parentId of ['nosuchgroup', foreign.id, strangersGroup.id]) {
        expectError(await patch(auth.id, { parentId }), 404, 'ERR_NOT_FOUND');
      }
      expect((await get(auth.id)).body).toEqual(auth);
      expect(await groupRows(other.id)).toEqual([{ id: foreign.id, parent_id: null, technical_name: 'billing' }]);
    });

    it('refuses a rename to a sibling\'s technicalName or to a name an entry of the parent uses (409)', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      await createGroup(server, owner.apiKey, project.id, 'billing');
      const login = await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      await createGroup(server, owner.apiKey, project.id, 'logout', auth.id);
      await createEntry(server, owner.apiKey, auth.id, 'title');
      expectError(await patch(auth.id, { technicalName: 'billing' }), 409, 'ERR_CONFLICT');
      expectError(await patch(login.id, { technicalName: 'logout' }), 409, 'ERR_CONFLICT');
      expectError(await patch(login.id, { technicalName: 'title' }), 409, 'ERR_CONFLICT');
      expect((await get(auth.id)).body).toEqual(auth);
      expect((await get(login.id)).body).toEqual(login);
    });
  });

  describe('delete', () => {
    it('deletes a group with its sub-groups, entries and translations and leaves no orphan rows', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const keep = await createGroup(server, owner.apiKey, project.id, 'billing');
      const login = await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      const form = await createGroup(server, owner.apiKey, project.id, 'form', login.id);
      const entries = [
        await createEntry(server, owner.apiKey, auth.id, 'title'),
        await createEntry(server, owner.apiKey, login.id, 'submit'),
        await createEntry(server, owner.apiKey, form.id, 'email'),
      ];
      for (const entry of entries) {
        await setTranslation(server, owner.apiKey, entry.id, 'de', `de ${entry.technicalName}`);
        await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', `pt ${entry.technicalName}`);
      }
      const kept = await createEntry(server, owner.apiKey, keep.id, 'total');
      await setTranslation(server, owner.apiKey, kept.id, 'de', 'Summe');

      const response = await server.api('DELETE', `/groups/${auth.id}`, { key: owner.apiKey });
      expect(response.status).toBe(204);
      expect(response.text).toBe('');

      for (const group of [auth, login, form]) expectError(await get(group.id), 404, 'ERR_NOT_FOUND');
      for (const entry of entries) expectError(await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey }), 404, 'ERR_NOT_FOUND');
      const db = server.store.db;
      const entryIds = entries.map((e) => e.id);
      expect(await db.selectFrom('groups').select('id').where('id', 'in', [auth.id, login.id, form.id]).execute()).toEqual([]);
      expect(await db.selectFrom('entries').select('id').where('id', 'in', entryIds).execute()).toEqual([]);
      expect(await db.selectFrom('translations').select('id').where('entry_id', 'in', entryIds).execute()).toEqual([]);
      // No row anywhere points at something that is gone.
      const orphanGroups = await db.selectFrom('groups as g').leftJoin('groups as p', 'p.id', 'g.parent_id')
        .select('g.id').where('g.parent_id', 'is not', null).where('p.id', 'is', null).execute();
      const orphanEntries = await db.selectFrom('entries as e').leftJoin('groups as g', 'g.id', 'e.group_id')
        .select('e.id').where('g.id', 'is', null).execute();
      const orphanTranslations = await db.selectFrom('translations as t').leftJoin('entries as e', 'e.id', 't.entry_id')
        .select('t.id').where('e.id', 'is', null).execute();
      expect({ orphanGroups, orphanEntries, orphanTranslations }).toEqual({ orphanGroups: [], orphanEntries: [], orphanTranslations: [] });

      // The sibling and its content are untouched.
      expect((await get(keep.id)).body).toEqual(keep);
      const keptEntry = await server.api('GET', `/entries/${kept.id}`, { key: owner.apiKey });
      expect(keptEntry.status).toBe(200);
      expect(keptEntry.body.translations.map((t: any) => t.translation)).toEqual(['Summe']);
      expect(await paths(project.id)).toEqual(['billing']);
    });

    it('answers 404 ERR_NOT_FOUND for a group deleted before', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      expect((await server.api('DELETE', `/groups/${auth.id}`, { key: owner.apiKey })).status).toBe(204);
      expectError(await server.api('DELETE', `/groups/${auth.id}`, { key: owner.apiKey }), 404, 'ERR_NOT_FOUND');
    });

    it('frees the technicalName of a deleted group', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      await server.api('DELETE', `/groups/${auth.id}`, { key: owner.apiKey });
      expect((await post(project.id, { technicalName: 'auth', displayName: 'Auth' })).status).toBe(200);
    });
  });

  describe('access', () => {
    it('answers 404 ERR_NOT_FOUND for GET, PATCH and DELETE of an unknown group', async () => {
      expectError(await get('nosuchgroup'), 404, 'ERR_NOT_FOUND');
      expectError(await patch('nosuchgroup', { displayName: 'X' }), 404, 'ERR_NOT_FOUND');
      expectError(await server.api('DELETE', '/groups/nosuchgroup', { key: owner.apiKey }), 404, 'ERR_NOT_FOUND');
    });

    it('hides another user\'s group behind 404 ERR_NOT_FOUND (not 403) on GET, PATCH and DELETE, leaving it untouched', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const login = await createGroup(server, owner.apiKey, project.id, 'login', auth.id);
      const version = await contentVersion(project.id);

      expectError(await get(login.id, stranger.apiKey), 404, 'ERR_NOT_FOUND');
      expectError(await patch(login.id, { displayName: 'Mine' }, stranger.apiKey), 404, 'ERR_NOT_FOUND');
      expectError(await patch(login.id, { parentId: null }, stranger.apiKey), 404, 'ERR_NOT_FOUND');
      expectError(await server.api('DELETE', `/groups/${auth.id}`, { key: stranger.apiKey }), 404, 'ERR_NOT_FOUND');
      expectError(await server.api('DELETE', `/groups/${login.id}`, { key: stranger.apiKey }), 404, 'ERR_NOT_FOUND');

      expect((await get(auth.id)).body).toEqual(auth);
      expect((await get(login.id)).body).toEqual(login);
      // A refused write leaves no trace, not even in the export version.
      expect(await contentVersion(project.id)).toBe(version);
    });

    it('lets a viewer read groups but answers 403 ERR_FORBIDDEN to its writes', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const viewer = await server.user();
      await addMember(server, project.id, viewer.id, 'viewer');

      expect((await list(project.id, '', viewer.apiKey)).body.result).toEqual([auth]);
      expect((await get(auth.id, viewer.apiKey)).body).toEqual(auth);
      expect((await server.api('GET', `/projects/${project.id}/groups/summary`, { key: viewer.apiKey })).status).toBe(200);
      expectError(await post(project.id, { technicalName: 'billing', displayName: 'Billing' }, viewer.apiKey), 403, 'ERR_FORBIDDEN');
      expectError(await patch(auth.id, { displayName: 'Mine' }, viewer.apiKey), 403, 'ERR_FORBIDDEN');
      expectError(await server.api('DELETE', `/groups/${auth.id}`, { key: viewer.apiKey }), 403, 'ERR_FORBIDDEN');
      expect(await groupRows(project.id)).toEqual([{ id: auth.id, parent_id: null, technical_name: 'auth' }]);
      expect((await get(auth.id)).body).toEqual(auth);
    });

    it('lets an editor create, update and delete groups', async () => {
      const project = await newProject();
      const editor = await server.user();
      await addMember(server, project.id, editor.id, 'editor');
      const made = await post(project.id, { technicalName: 'auth', displayName: 'Auth' }, editor.apiKey);
      expect(made.status, made.text).toBe(200);
      expect((await patch(made.body.id, { displayName: 'Authentication' }, editor.apiKey)).status).toBe(200);
      expect((await server.api('DELETE', `/groups/${made.body.id}`, { key: editor.apiKey })).status).toBe(204);
    });

    it('treats a pending invitee like a stranger: 404 on the project\'s groups', async () => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      const invitee = await server.user();
      await addMember(server, project.id, invitee.id, 'editor', false);
      expectError(await list(project.id, '', invitee.apiKey), 404, 'ERR_PROJECT_NOT_FOUND');
      expectError(await get(auth.id, invitee.apiKey), 404, 'ERR_NOT_FOUND');
      expectError(await patch(auth.id, { displayName: 'Mine' }, invitee.apiKey), 404, 'ERR_NOT_FOUND');
    });

    const routes: Array<[string, string, (projectId: string, groupId: string) => string, unknown?]> = [
      ['GET /projects/{id}/groups', 'GET', (p) => `/projects/${p}/groups`],
      ['GET /projects/{id}/groups/summary', 'GET', (p) => `/projects/${p}/groups/summary`],
      ['POST /projects/{id}/groups', 'POST', (p) => `/projects/${p}/groups`, { technicalName: 'intruder', displayName: 'Intruder' }],
      ['GET /groups/{id}', 'GET', (_p, g) => `/groups/${g}`],
      ['PATCH /groups/{id}', 'PATCH', (_p, g) => `/groups/${g}`, { displayName: 'Intruder' }],
      ['DELETE /groups/{id}', 'DELETE', (_p, g) => `/groups/${g}`],
    ];

    it.each(routes)('answers %s with 401 ERR_UNAUTHORIZED without a key or with a bad key', async (_label, method, path, body) => {
      const project = await newProject();
      const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
      for (const key of [null, 'tolk_notarealkey', 'garbage']) {
        const response = await server.api(method, path(project.id, auth.id), { key, body });
        expect(response.status, `${key}`).toBe(401);
        expect(response.body).toEqual(errorBody(401, 'ERR_UNAUTHORIZED'));
      }
      expect(await groupRows(project.id)).toEqual([{ id: auth.id, parent_id: null, technical_name: 'auth' }]);
      expect((await get(auth.id)).body).toEqual(auth);
    });
  });

  describe('concurrency', () => {
    it.each([['at the top level', false], ['under one parent', true]])(
      'lets exactly one of 20 concurrent creates of one name %s succeed; the rest get 409',
      async (_label, nested) => {
        const project = await newProject();
        const parentId = nested ? (await createGroup(server, owner.apiKey, project.id, 'parent')).id : null;
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) => post(project.id, { technicalName: 'race', displayName: `Racer ${i}`, parentId })),
        );
        const statuses = responses.map((r) => r.status).sort();
        expect(statuses).toEqual([200, ...Array(19).fill(409)]);
        for (const response of responses.filter((r) => r.status === 409)) expect(response.body).toEqual(errorBody(409, 'ERR_CONFLICT'));
        const rows = (await groupRows(project.id)).filter((g) => g.technical_name === 'race');
        expect(rows).toEqual([{ id: responses.find((r) => r.status === 200)!.body.id, parent_id: parentId, technical_name: 'race' }]);
      },
    );

    it('lets only one of a concurrent sub-group and entry with the same name in one group succeed', async () => {
      for (let round = 0; round < 5; round++) {
        const project = await newProject();
        const auth = await createGroup(server, owner.apiKey, project.id, 'auth');
        const [group, entry] = await Promise.all([
          post(project.id, { technicalName: 'login', displayName: 'Login', parentId: auth.id }),
          server.api('POST', `/groups/${auth.id}/entries`, { key: owner.apiKey, body: { technicalName: 'login', baseTerm: 'Log in' } }),
        ]);
        expect([group.status, entry.status].sort()).toEqual([200, 409]);
        const groups = (await list(project.id, `?parentId=${auth.id}`)).body.total;
        const entries = (await server.api('GET', `/groups/${auth.id}/entries`, { key: owner.apiKey })).body.total;
        expect(groups + entries).toBe(1);
      }
    });

    it('never makes a cycle from concurrent moves of A under B and B under A', async () => {
      for (let round = 0; round < 5; round++) {
        const project = await newProject();
        const a = await createGroup(server, owner.apiKey, project.id, 'alpha');
        const b = await createGroup(server, owner.apiKey, project.id, 'bravo');
        const [moveA, moveB] = await Promise.all([patch(a.id, { parentId: b.id }), patch(b.id, { parentId: a.id })]);
        expect([moveA.status, moveB.status].sort()).toEqual([200, 409]);
        expect([moveA, moveB].find((r) => r.status === 409)!.body).toEqual(errorBody(409, 'ERR_CONFLICT'));
        // A cycle would cut both groups off the root, and the summary would lose them.
        const rows = await groupRows(project.id);
        expect(rows.filter((g) => g.parent_id === null)).toHaveLength(1);
        expect(await paths(project.id)).toEqual(moveA.status === 200 ? ['bravo', 'bravo.alpha'] : ['alpha', 'alpha.bravo']);
      }
    });

    it('never exceeds depth 10 through two concurrent moves that are each allowed alone', async () => {
      for (let round = 0; round < 3; round++) {
        const project = await newProject();
        const target = await createGroupChain(server, owner.apiKey, project.id, 5, 'target');
        const moved = await createGroupChain(server, owner.apiKey, project.id, 5, 'moved');
        const top = await createGroup(server, owner.apiKey, project.id, 'top');
        // moved1 under target5 reaches depth 10; target1 under top deepens target5 by one.
        const [deepen, lift] = await Promise.all([patch(moved[0].id, { parentId: target[4].id }), patch(target[0].id, { parentId: top.id })]);
        expect([deepen.status, lift.status].sort()).toEqual([200, 400]);
        expect([deepen, lift].find((r) => r.status === 400)!.body).toEqual(errorBody(400, 'ERR_HIERARCHY_LIMIT'));
        const items = await summary(project.id);
        expect(items).toHaveLength(11);
        expect(Math.max(...items.map((s) => s.breadcrumbs.length + 1))).toBe(deepen.status === 200 ? 10 : 6);
      }
    });

    it('answers creates that race a project delete with 200 or 404 ERR_PROJECT_NOT_FOUND, leaving no group', async () => {
      for (let round = 0; round < 10; round++) {
        const project = await newProject();
        const parent = await createGroup(server, owner.apiKey, project.id, 'auth');
        const [deletion, ...creates] = await Promise.all([
          server.api('DELETE', `/projects/${project.id}`, { key: owner.apiKey }),
          ...Array.from({ length: 6 }, (_, i) => post(project.id, { technicalName: `top${i}`, displayName: 'Top' })),
          ...Array.from({ length: 2 }, (_, i) => post(project.id, { technicalName: `child${i}`, displayName: 'Child', parentId: parent.id })),
        ]);
        expect(deletion!.status).toBe(204);
        for (const response of creates) {
          if (response.status !== 200) expect(response.body).toEqual(errorBody(404, 'ERR_PROJECT_NOT_FOUND'));
        }
        expect(await groupRows(project.id)).toEqual([]);
      }
    });

    it('never leaves a child of a group deleted while children are being created', async () => {
      const project = await newProject();
      const parent = await createGroup(server, owner.apiKey, project.id, 'doomed');
      const responses = await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => post(project.id, { technicalName: `child${i}`, displayName: 'Child', parentId: parent.id })),
        server.api('DELETE', `/groups/${parent.id}`, { key: owner.apiKey }),
      ]);
      const deletion = responses.pop()!;
      expect(deletion.status).toBe(204);
      for (const response of responses) {
        if (response.status !== 200) expect(response.body).toEqual(errorBody(404, 'ERR_NOT_FOUND'));
      }
      expect(await groupRows(project.id)).toEqual([]);
    });
  });
});
