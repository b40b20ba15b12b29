/** The members extension of the contract: invitations, acceptance, roles, leaving, ownership transfer, member limit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/access/capabilities.js';
import { accept, addConfirmedMember, invite, type TestUser } from '../helpers/access.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProject, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

describe.each(DIALECTS)('members on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server?.close());

  const user = (options: { memberLimit?: number } = {}): Promise<TestUser> => server.user(options);

  /** A project of `owner` with a group, an entry and its German translation. */
  async function project(owner: TestUser) {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'greeting', 'Hello');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Hallo');
    return { id: project.id as string, groupId: group.id as string, entryId: entry.id as string };
  }

  /** An owner, its project, and one confirmed member per role given, accepted in that order. */
  async function team<const R extends readonly Role[]>(roles: R, ownerOptions: { memberLimit?: number } = {}) {
    const owner = await user(ownerOptions);
    const p = await project(owner);
    const members = [] as TestUser[];
    for (const role of roles) {
      const member = await user();
      await addConfirmedMember(server, owner.apiKey, p.id, member, role);
      members.push(member);
    }
    return { owner, p, members: members as { [K in keyof R]: TestUser } };
  }

  /** `count` new users. */
  const users = (count: number): Promise<TestUser[]> => Promise.all(Array.from({ length: count }, () => user()));

  function expectError(response: ApiResponse, status: number, code: string) {
    expect(response.status, response.text).toBe(status);
    expect(response.body).toEqual({ statusCode: status, code, message: expect.any(String) });
  }

  const getProject = (projectId: string, who: TestUser) => server.api('GET', `/projects/${projectId}`, { key: who.apiKey });
  const memberQuota = async (projectId: string, who: TestUser) => (await getProject(projectId, who)).body.memberQuota;
  const listedProjectIds = async (who: TestUser) =>
    (await server.api('GET', '/projects?limit=100', { key: who.apiKey })).body.result.map((p: { id: string }) => p.id);
  const memberRows = async (projectId: string, who: TestUser) =>
    (await server.api('GET', `/projects/${projectId}/members`, { key: who.apiKey })).body.result.map(
      (m: { userId: string; role: string; confirmed: boolean; isOverLimit: boolean }) => [m.userId, m.role, m.confirmed, m.isOverLimit],
    );

  /** Every read of the project's content a member may make, as [path, the code a non-member gets]. */
  const reads = (p: { id: string; groupId: string; entryId: string }): [string, string][] => [
    [`/projects/${p.id}`, 'ERR_PROJECT_NOT_FOUND'],
    [`/projects/${p.id}/groups`, 'ERR_PROJECT_NOT_FOUND'],
    [`/projects/${p.id}/groups/summary`, 'ERR_PROJECT_NOT_FOUND'],
    [`/projects/${p.id}/members`, 'ERR_PROJECT_NOT_FOUND'],
    [`/projects/${p.id}/entries/untranslated?languageCode=de`, 'ERR_PROJECT_NOT_FOUND'],
    [`/projects/${p.id}/entries/unreviewed?languageCode=de`, 'ERR_PROJECT_NOT_FOUND'],
    [`/projects/${p.id}/export/json`, 'ERR_PROJECT_NOT_FOUND'],
    [`/projects/${p.id}/export/vue-i18n`, 'ERR_PROJECT_NOT_FOUND'],
    [`/projects/${p.id}/export/i18next`, 'ERR_PROJECT_NOT_FOUND'],
    [`/projects/${p.id}/export/flutter`, 'ERR_PROJECT_NOT_FOUND'],
    [`/groups/${p.groupId}`, 'ERR_NOT_FOUND'],
    [`/groups/${p.groupId}/entries`, 'ERR_NOT_FOUND'],
    [`/entries/${p.entryId}`, 'ERR_NOT_FOUND'],
  ];

  describe('invitations', () => {
    it('an invitation answers 200 Member with confirmed false, its own id, no names and a one-time link, and counts toward nothing', async () => {
      const { owner, p } = await team([]);
      const invitee = await user();
      const response = await server.api('POST', `/projects/${p.id}/members`, { key: owner.apiKey, body: { email: invitee.email, role: 'editor' } });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({
        userId: expect.any(String),
        email: invitee.email,
        firstName: '',
        lastName: '',
        role: 'editor',
        confirmed: false,
        isOverLimit: false,
        createdAt: expect.any(String),
        invitationToken: expect.stringMatching(/^[\w-]{43}$/),
        invitationUrl: expect.stringMatching(new RegExp(`/invitations/accept\\?project=${p.id}#token=${response.body.invitationToken}$`)),
      });
      // the invitation's own id, not the account's (which would tell that the address has one)
      expect(response.body.userId).not.toBe(invitee.id);
      expect(new Date(response.body.createdAt).toISOString()).toBe(response.body.createdAt);
      expect(await memberQuota(p.id, owner)).toEqual({ limit: 5, confirmedCount: 0, overLimitCount: 0 });
    });

    it('a pending invitee gets 404 on the project, its groups, entries and exports, and does not see it in GET /projects, until it accepts', async () => {
      const { owner, p } = await team([]);
      const invitee = await user();
      await invite(server, owner.apiKey, p.id, invitee, 'admin');
      for (const [path, code] of reads(p)) expectError(await server.api('GET', path, { key: invitee.apiKey }), 404, code);
      const write = await server.api('PUT', `/entries/${p.entryId}/translations`, { key: invitee.apiKey, body: { language: 'de', translation: 'Moin' } });
      expectError(write, 404, 'ERR_NOT_FOUND');
      expect(await listedProjectIds(invitee)).not.toContain(p.id);

      await accept(server, invitee, p.id);
      for (const [path] of reads(p)) expect((await server.api('GET', path, { key: invitee.apiKey })).status, path).toBe(200);
      expect((await getProject(p.id, invitee)).body.capabilities).toMatchObject({ role: 'admin', isOwner: false, canManageMembers: true });
      expect(await listedProjectIds(invitee)).toContain(p.id);
    });

    it('accepting again changes nothing: same member, same place in the acceptance order', async () => {
      const { owner, p } = await team([], { memberLimit: 1 });
      const [first, second] = (await users(2)) as [TestUser, TestUser];
      await invite(server, owner.apiKey, p.id, first, 'editor');
      await invite(server, owner.apiKey, p.id, second, 'editor');
      const accepted = await accept(server, first, p.id);
      await accept(server, second, p.id);
      const again = await accept(server, first, p.id);
      expect(again).toEqual(accepted);
      expect(await memberRows(p.id, owner)).toEqual([
        [first.id, 'editor', true, false],
        [second.id, 'editor', true, true],
      ]);
      expect(await memberQuota(p.id, owner)).toEqual({ limit: 1, confirmedCount: 2, overLimitCount: 1 });
    });

    it('a user without an invitation cannot accept: 404 ERR_PROJECT_NOT_FOUND', async () => {
      const { p } = await team([]);
      const stranger = await user();
      expectError(await server.api('POST', `/projects/${p.id}/members/accept`, { key: stranger.apiKey }), 404, 'ERR_PROJECT_NOT_FOUND');
      expectError(await server.api('POST', '/projects/nosuchproject/members/accept', { key: stranger.apiKey }), 404, 'ERR_PROJECT_NOT_FOUND');
    });

    it('inviting an e-mail no user has makes a pending invitation too (the answer does not tell; invitations-proof.test.ts)', async () => {
      const { owner, p } = await team([]);
      const response = await server.api('POST', `/projects/${p.id}/members`, { key: owner.apiKey, body: { email: 'nobody-here@example.com', role: 'viewer' } });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ email: 'nobody-here@example.com', firstName: '', lastName: '', role: 'viewer', confirmed: false });
      const malformed = await server.api('POST', `/projects/${p.id}/members`, { key: owner.apiKey, body: { email: 'not an address', role: 'viewer' } });
      expect(malformed.status, malformed.text).toBe(400);
      expect(malformed.body.code).toBe('ERR_VALIDATION');
    });

    it('inviting a member, a pending invitee (in any letter case) or the owner is 409 ERR_CONFLICT', async () => {
      const { owner, p, members: [member] } = await team(['viewer']);
      const invitee = await user();
      const invitation = await invite(server, owner.apiKey, p.id, invitee, 'viewer');
      for (const email of [member.email, invitee.email, invitee.email.toUpperCase(), owner.email]) {
        const response = await server.api('POST', `/projects/${p.id}/members`, { key: owner.apiKey, body: { email, role: 'editor' } });
        expectError(response, 409, 'ERR_CONFLICT');
      }
      // the refused invitation changed nothing
      expect(await memberRows(p.id, owner)).toEqual([
        [member.id, 'viewer', true, false],
        [invitation.userId, 'viewer', false, false],
      ]);
    });

    it('a role outside admin, editor, reviewer, translator and viewer is 400 ERR_VALIDATION', async () => {
      const { owner, p } = await team([]);
      const invitee = await user();
      for (const role of ['owner', 'Admin', 'Reviewer', 'review', '', null]) {
        const response = await server.api('POST', `/projects/${p.id}/members`, { key: owner.apiKey, body: { email: invitee.email, role } });
        expect(response.status, String(role)).toBe(400);
        expect(response.body.code).toBe('ERR_VALIDATION');
      }
    });
  });

  describe('the member list', () => {
    it('is paginated: confirmed members in acceptance order, then invitations; the owner is not listed', async () => {
      const { owner, p } = await team([]);
      const [a, b, c, pending] = (await users(4)) as [TestUser, TestUser, TestUser, TestUser];
      for (const member of [a, b, c]) await invite(server, owner.apiKey, p.id, member, 'translator');
      const invitation = await invite(server, owner.apiKey, p.id, pending, 'viewer');
      for (const member of [c, a, b]) await accept(server, member, p.id);

      const first = await server.api('GET', `/projects/${p.id}/members?limit=2`, { key: a.apiKey });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ limit: 2, offset: 0, total: 4 });
      expect(first.body.result.map((m: { userId: string }) => m.userId)).toEqual([c.id, a.id]);
      const second = await server.api('GET', `/projects/${p.id}/members?limit=2&offset=2`, { key: a.apiKey });
      expect(second.body).toMatchObject({ limit: 2, offset: 2, total: 4 });
      expect(second.body.result.map((m: { userId: string; confirmed: boolean }) => [m.userId, m.confirmed])).toEqual([
        [b.id, true],
        [invitation.userId, false],
      ]);
      const all = await server.api('GET', `/projects/${p.id}/members`, { key: owner.apiKey });
      expect(all.body.result.map((m: { userId: string }) => m.userId)).not.toContain(owner.id);
    });

    it('refuses a bad page query with 400 ERR_VALIDATION', async () => {
      const { owner, p } = await team([]);
      for (const query of ['limit=0', 'limit=101', 'offset=-1']) {
        const response = await server.api('GET', `/projects/${p.id}/members?${query}`, { key: owner.apiKey });
        expect(response.status, query).toBe(400);
        expect(response.body.code).toBe('ERR_VALIDATION');
      }
    });
  });

  describe('roles', () => {
    it('a manager changes a member\'s role and the new role applies at once', async () => {
      const { owner, p, members: [admin, member] } = await team(['admin', 'editor']);
      const newGroup = (name: string) => server.api('POST', `/projects/${p.id}/groups`, { key: member.apiKey, body: { technicalName: name, displayName: name } });
      expect((await newGroup('first')).status).toBe(200);

      const toViewer = await server.api('PATCH', `/projects/${p.id}/members/${member.id}`, { key: admin.apiKey, body: { role: 'viewer' } });
      expect(toViewer.status, toViewer.text).toBe(200);
      expect(toViewer.body).toMatchObject({ userId: member.id, role: 'viewer', confirmed: true });
      expectError(await newGroup('second'), 403, 'ERR_FORBIDDEN');
      expect((await getProject(p.id, member)).body.capabilities).toMatchObject({ role: 'viewer', canEditGroups: false, canTranslate: false });

      const toTranslator = await server.api('PATCH', `/projects/${p.id}/members/${member.id}`, { key: owner.apiKey, body: { role: 'translator' } });
      expect(toTranslator.body.role).toBe('translator');
      const translated = await server.api('PUT', `/entries/${p.entryId}/translations`, { key: member.apiKey, body: { language: 'de', translation: 'Servus' } });
      expect(translated.status).toBe(200);
    });

    it('an invitation\'s role can be changed before it is accepted', async () => {
      const { owner, p } = await team([]);
      const invitee = await user();
      const invitation = await invite(server, owner.apiKey, p.id, invitee, 'viewer');
      const changed = await server.api('PATCH', `/projects/${p.id}/members/${invitation.userId}`, { key: owner.apiKey, body: { role: 'editor' } });
      expect(changed.body).toMatchObject({ userId: invitation.userId, role: 'editor', confirmed: false });
      expect((await accept(server, invitee, p.id)).role).toBe('editor');
    });

    it('only the owner assigns or removes the admin role: an admin gets 403 ERR_FORBIDDEN', async () => {
      const { owner, p, members: [admin, otherAdmin, editor] } = await team(['admin', 'admin', 'editor']);
      const newcomer = await user();
      const as = (who: TestUser, method: string, path: string, body?: unknown) => server.api(method, `/projects/${p.id}${path}`, { key: who.apiKey, body });

      expectError(await as(admin, 'POST', '/members', { email: newcomer.email, role: 'admin' }), 403, 'ERR_FORBIDDEN');
      expectError(await as(admin, 'PATCH', `/members/${editor.id}`, { role: 'admin' }), 403, 'ERR_FORBIDDEN');
      expectError(await as(admin, 'PATCH', `/members/${otherAdmin.id}`, { role: 'viewer' }), 403, 'ERR_FORBIDDEN');
      expectError(await as(admin, 'DELETE', `/members/${otherAdmin.id}`), 403, 'ERR_FORBIDDEN');
      expect(await memberRows(p.id, owner)).toEqual([
        [admin.id, 'admin', true, false],
        [otherAdmin.id, 'admin', true, false],
        [editor.id, 'editor', true, false],
      ]);
      // what an admin may do: manage the other roles
      const invited = await as(admin, 'POST', '/members', { email: newcomer.email, role: 'translator' });
      expect(invited.status).toBe(200);
      expect((await as(admin, 'PATCH', `/members/${editor.id}`, { role: 'viewer' })).status).toBe(200);

      expect((await as(owner, 'PATCH', `/members/${editor.id}`, { role: 'admin' })).body.role).toBe('admin');
      expect((await as(owner, 'PATCH', `/members/${otherAdmin.id}`, { role: 'viewer' })).body.role).toBe('viewer');
      expect((await as(owner, 'DELETE', `/members/${editor.id}`)).status).toBe(204);
      expect(await memberRows(p.id, owner)).toEqual([
        [admin.id, 'admin', true, false],
        [otherAdmin.id, 'viewer', true, false],
        [invited.body.userId, 'translator', false, false],
      ]);
    });

    it('changing or removing a user who is not a member is 404 ERR_NOT_FOUND', async () => {
      const { owner, p } = await team([]);
      const stranger = await user();
      expectError(await server.api('PATCH', `/projects/${p.id}/members/${stranger.id}`, { key: owner.apiKey, body: { role: 'viewer' } }), 404, 'ERR_NOT_FOUND');
      expectError(await server.api('DELETE', `/projects/${p.id}/members/${stranger.id}`, { key: owner.apiKey }), 404, 'ERR_NOT_FOUND');
      expectError(await server.api('DELETE', `/projects/${p.id}/members/nosuchuser`, { key: owner.apiKey }), 404, 'ERR_NOT_FOUND');
    });
  });

  describe('the reviewer role', () => {
    const reviewAs = (who: TestUser, entryId: string) =>
      server.api('POST', `/entries/${entryId}/translations/review`, { key: who.apiKey, body: { language: 'de' } });

    it('a reviewer is invited, listed and accepted as one; it translates and reviews, and edits no entries, groups, project or members', async () => {
      const { owner, p } = await team([]);
      const reviewer = await user();
      const invited = await server.api('POST', `/projects/${p.id}/members`, { key: owner.apiKey, body: { email: reviewer.email, role: 'reviewer' } });
      expect(invited.status, invited.text).toBe(200);
      expect(invited.body).toMatchObject({ role: 'reviewer', confirmed: false });
      expect((await server.api('GET', '/invitations', { key: reviewer.apiKey })).body).toEqual([expect.objectContaining({ projectId: p.id, role: 'reviewer' })]);
      expect((await accept(server, reviewer, p.id)).role).toBe('reviewer');
      expect(await memberRows(p.id, owner)).toEqual([[reviewer.id, 'reviewer', true, false]]);
      expect((await getProject(p.id, reviewer)).body.capabilities).toEqual({
        isOwner: false,
        isOverLimit: false,
        role: 'reviewer',
        canUpdateProject: false,
        canDeleteProject: false,
        canManageMembers: false,
        canAssignAdminRole: false,
        canTransferOwnership: false,
        canLeave: true,
        canReadEntries: true,
        canEditEntries: false,
        canTranslate: true,
        canReview: true,
        canReadGroups: true,
        canEditGroups: false,
      });

      const as = (method: string, path: string, body?: unknown) => server.api(method, path, { key: reviewer.apiKey, body });
      expect((await as('PUT', `/entries/${p.entryId}/translations`, { language: 'de', translation: 'Servus' })).status).toBe(200);
      const reviewed = await reviewAs(reviewer, p.entryId);
      expect(reviewed.status, reviewed.text).toBe(200);
      expect(reviewed.body).toMatchObject({ translation: 'Servus', state: 'reviewed', reviewedBy: { id: reviewer.id } });
      expect((await as('DELETE', `/entries/${p.entryId}/translations/review`, { language: 'de' })).body).toMatchObject({ state: 'translated', reviewedBy: null });
      expect((await as('POST', `/projects/${p.id}/reviews`, { language: 'de', entryIds: [p.entryId] })).body).toEqual({ reviewed: 1, unchanged: 0, refused: [] });
      expect((await as('POST', `/entries/${p.entryId}/translations/confirm`, { language: 'de' })).status).toBe(200);
      for (const [method, path, body] of [
        ['PATCH', `/entries/${p.entryId}`, { baseTerm: 'Hi' }],
        ['POST', `/groups/${p.groupId}/entries`, { technicalName: 'reviewerMade', baseTerm: 'x' }],
        ['POST', `/projects/${p.id}/groups`, { technicalName: 'reviewerGroup', displayName: 'x' }],
        ['PATCH', `/projects/${p.id}`, { name: 'Renamed by a reviewer' }],
        ['POST', `/projects/${p.id}/members`, { email: 'friend@example.com', role: 'viewer' }],
      ] as const) {
        expectError(await as(method, path, body), 403, 'ERR_FORBIDDEN');
      }
      for (const [path] of reads(p)) expect((await as('GET', path)).status, path).toBe(200);
    });

    it('an admin makes a translator a reviewer and back: reviewing follows the role at once, translating stays', async () => {
      const { p, members: [admin, member] } = await team(['admin', 'translator']);
      await setTranslation(server, admin.apiKey, p.entryId, 'de', 'Grüß Gott');
      expectError(await reviewAs(member, p.entryId), 403, 'ERR_FORBIDDEN');

      const toReviewer = await server.api('PATCH', `/projects/${p.id}/members/${member.id}`, { key: admin.apiKey, body: { role: 'reviewer' } });
      expect(toReviewer.status, toReviewer.text).toBe(200);
      expect(toReviewer.body).toMatchObject({ userId: member.id, role: 'reviewer', confirmed: true });
      expect((await reviewAs(member, p.entryId)).body).toMatchObject({ state: 'reviewed', reviewedBy: { id: member.id } });

      const back = await server.api('PATCH', `/projects/${p.id}/members/${member.id}`, { key: admin.apiKey, body: { role: 'translator' } });
      expect(back.body.role).toBe('translator');
      expectError(await server.api('DELETE', `/entries/${p.entryId}/translations/review`, { key: member.apiKey, body: { language: 'de' } }), 403, 'ERR_FORBIDDEN');
      expect((await server.api('PUT', `/entries/${p.entryId}/translations`, { key: member.apiKey, body: { language: 'de', translation: 'Servus' } })).status).toBe(200);
    });

    it("an invitation's role changes to reviewer before it is accepted, and the invitee accepts as a reviewer", async () => {
      const { owner, p } = await team([]);
      const invitee = await user();
      const invitation = await invite(server, owner.apiKey, p.id, invitee, 'viewer');
      const changed = await server.api('PATCH', `/projects/${p.id}/members/${invitation.userId}`, { key: owner.apiKey, body: { role: 'reviewer' } });
      expect(changed.body).toMatchObject({ userId: invitation.userId, role: 'reviewer', confirmed: false });
      expect((await accept(server, invitee, p.id)).role).toBe('reviewer');
      expect((await reviewAs(invitee, p.entryId)).status).toBe(200);
    });
  });

  describe('removing and leaving', () => {
    it('a manager removes a member, who then gets 404 on the project and no longer lists it', async () => {
      const { owner, p, members: [admin, editor] } = await team(['admin', 'editor']);
      const removed = await server.api('DELETE', `/projects/${p.id}/members/${editor.id}`, { key: admin.apiKey });
      expect(removed.status, removed.text).toBe(204);
      expect(removed.text).toBe('');
      expectError(await getProject(p.id, editor), 404, 'ERR_PROJECT_NOT_FOUND');
      expectError(await server.api('GET', `/entries/${p.entryId}`, { key: editor.apiKey }), 404, 'ERR_NOT_FOUND');
      expect(await listedProjectIds(editor)).not.toContain(p.id);
      expect(await memberRows(p.id, owner)).toEqual([[admin.id, 'admin', true, false]]);
      expect(await memberQuota(p.id, owner)).toMatchObject({ confirmedCount: 1 });
      expectError(await server.api('DELETE', `/projects/${p.id}/members/${editor.id}`, { key: admin.apiKey }), 404, 'ERR_NOT_FOUND');
    });

    it('a member leaves by removing itself; an admin may leave too', async () => {
      const { owner, p, members: [viewer, admin] } = await team(['viewer', 'admin']);
      for (const member of [viewer, admin]) {
        const left = await server.api('DELETE', `/projects/${p.id}/members/${member.id}`, { key: member.apiKey });
        expect(left.status, left.text).toBe(204);
        expectError(await getProject(p.id, member), 404, 'ERR_PROJECT_NOT_FOUND');
        expect(await listedProjectIds(member)).not.toContain(p.id);
      }
      expect(await memberRows(p.id, owner)).toEqual([]);
    });

    it('an invitee declines by removing itself; its invitation is gone', async () => {
      const { owner, p } = await team([]);
      const invitee = await user();
      await invite(server, owner.apiKey, p.id, invitee, 'editor');
      expect((await server.api('DELETE', `/projects/${p.id}/members/${invitee.id}`, { key: invitee.apiKey })).status).toBe(204);
      expectError(await server.api('POST', `/projects/${p.id}/members/accept`, { key: invitee.apiKey }), 404, 'ERR_PROJECT_NOT_FOUND');
      expect(await memberRows(p.id, owner)).toEqual([]);
    });

    it('the owner cannot leave (403 ERR_FORBIDDEN), nor be removed by an admin (403 ERR_FORBIDDEN)', async () => {
      const { owner, p, members: [admin] } = await team(['admin']);
      expectError(await server.api('DELETE', `/projects/${p.id}/members/${owner.id}`, { key: owner.apiKey }), 403, 'ERR_FORBIDDEN');
      expectError(await server.api('DELETE', `/projects/${p.id}/members/${owner.id}`, { key: admin.apiKey }), 403, 'ERR_FORBIDDEN');
      expect((await getProject(p.id, owner)).body.capabilities).toMatchObject({ isOwner: true, canLeave: false });
    });
  });

  describe('ownership transfer', () => {
    it('only the owner transfers the ownership: an admin gets 403 ERR_FORBIDDEN', async () => {
      const { owner, p, members: [admin, editor] } = await team(['admin', 'editor']);
      for (const target of [admin, editor]) {
        const response = await server.api('POST', `/projects/${p.id}/transfer-ownership`, { key: admin.apiKey, body: { userId: target.id } });
        expectError(response, 403, 'ERR_FORBIDDEN');
      }
      expect((await getProject(p.id, owner)).body.ownerId).toBe(owner.id);
    });

    it('the new owner must be a confirmed member: an invitee, a stranger, the owner or an unknown id is 400 ERR_VALIDATION', async () => {
      const { owner, p } = await team([]);
      const [invitee, stranger] = (await users(2)) as [TestUser, TestUser];
      const invitation = await invite(server, owner.apiKey, p.id, invitee, 'admin');
      for (const userId of [invitee.id, invitation.userId, stranger.id, owner.id, 'nosuchuser']) {
        const response = await server.api('POST', `/projects/${p.id}/transfer-ownership`, { key: owner.apiKey, body: { userId } });
        expect(response.status, `${userId}: ${response.text}`).toBe(400);
        expect(response.body.code).toBe('ERR_VALIDATION');
      }
      expect((await getProject(p.id, owner)).body.ownerId).toBe(owner.id);
      expect(await memberRows(p.id, owner)).toEqual([[invitation.userId, 'admin', false, false]]);
    });

    it('hands the project over: the old owner becomes an admin, the new one owns it and is no longer listed as a member', async () => {
      const { owner, p, members: [heir] } = await team(['viewer']);
      const response = await server.api('POST', `/projects/${p.id}/transfer-ownership`, { key: owner.apiKey, body: { userId: heir.id } });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ id: p.id, ownerId: heir.id, owner: { id: heir.id } });
      // the answer carries the caller's (the old owner's) new capabilities
      expect(response.body.capabilities).toMatchObject({ isOwner: false, role: 'admin', canManageMembers: true, canDeleteProject: false, canLeave: true });

      const asHeir = await getProject(p.id, heir);
      expect(asHeir.body.capabilities).toMatchObject({ isOwner: true, role: null, canDeleteProject: true, canTransferOwnership: true, canLeave: false });
      expect(await memberRows(p.id, heir)).toEqual([[owner.id, 'admin', true, false]]);
      expect(await memberQuota(p.id, heir)).toMatchObject({ confirmedCount: 1 });

      expectError(await server.api('POST', `/projects/${p.id}/transfer-ownership`, { key: owner.apiKey, body: { userId: heir.id } }), 403, 'ERR_FORBIDDEN');
      expectError(await server.api('DELETE', `/projects/${p.id}`, { key: owner.apiKey }), 403, 'ERR_FORBIDDEN');
      expectError(await server.api('DELETE', `/projects/${p.id}/members/${heir.id}`, { key: heir.apiKey }), 403, 'ERR_FORBIDDEN');
      expect((await server.api('DELETE', `/projects/${p.id}/members/${owner.id}`, { key: owner.apiKey })).status).toBe(204);
      expect(await listedProjectIds(owner)).not.toContain(p.id);
      expect(await listedProjectIds(heir)).toContain(p.id);
      expect((await server.api('DELETE', `/projects/${p.id}`, { key: heir.apiKey })).status).toBe(204);
    });

    it('memberQuota follows the new owner\'s member limit, and the old owner takes the new owner\'s place in acceptance order', async () => {
      const owner = await user({ memberLimit: 5 });
      const heir = await user({ memberLimit: 1 });
      const later = await user();
      const p = await project(owner);
      await addConfirmedMember(server, owner.apiKey, p.id, heir, 'editor');
      await addConfirmedMember(server, owner.apiKey, p.id, later, 'editor');
      expect(await memberQuota(p.id, owner)).toEqual({ limit: 5, confirmedCount: 2, overLimitCount: 0 });

      expect((await server.api('POST', `/projects/${p.id}/transfer-ownership`, { key: owner.apiKey, body: { userId: heir.id } })).status).toBe(200);
      expect(await memberQuota(p.id, heir)).toEqual({ limit: 1, confirmedCount: 2, overLimitCount: 1 });
      expect(await memberRows(p.id, heir)).toEqual([
        [owner.id, 'admin', true, false],
        [later.id, 'editor', true, true],
      ]);
      expect((await getProject(p.id, later)).body.capabilities).toMatchObject({ isOverLimit: true, canEditEntries: false });
      expect((await getProject(p.id, owner)).body.capabilities).toMatchObject({ isOverLimit: false, canManageMembers: true });
    });
  });

  describe('the member limit', () => {
    it('memberQuota counts confirmed members against the owner\'s limit; invitations count for nothing', async () => {
      const { owner, p } = await team(['viewer', 'translator', 'editor'], { memberLimit: 2 });
      for (const invitee of await users(3)) await invite(server, owner.apiKey, p.id, invitee, 'viewer');
      expect(await memberQuota(p.id, owner)).toEqual({ limit: 2, confirmedCount: 3, overLimitCount: 1 });
    });

    it('members accepted beyond the limit are read-only (403 on writes, 200 on reads), whatever the invitation order', async () => {
      const { owner, p } = await team([], { memberLimit: 2 });
      const [late, first, second] = (await users(3)) as [TestUser, TestUser, TestUser];
      for (const member of [late, first, second]) await invite(server, owner.apiKey, p.id, member, 'admin');
      for (const member of [first, second, late]) await accept(server, member, p.id);

      expect(await memberRows(p.id, owner)).toEqual([
        [first.id, 'admin', true, false],
        [second.id, 'admin', true, false],
        [late.id, 'admin', true, true],
      ]);
      expect((await getProject(p.id, late)).body.capabilities).toEqual({
        isOwner: false,
        isOverLimit: true,
        role: 'admin',
        canUpdateProject: false,
        canDeleteProject: false,
        canManageMembers: false,
        canAssignAdminRole: false,
        canTransferOwnership: false,
        canLeave: true,
        canReadEntries: true,
        canEditEntries: false,
        canTranslate: false,
        canReview: false,
        canReadGroups: true,
        canEditGroups: false,
      });

      const writes = (who: TestUser, n: number) => [
        server.api('PATCH', `/projects/${p.id}`, { key: who.apiKey, body: { name: `Renamed ${n}` } }),
        server.api('POST', `/projects/${p.id}/groups`, { key: who.apiKey, body: { technicalName: `group${n}`, displayName: 'G' } }),
        server.api('POST', `/groups/${p.groupId}/entries`, { key: who.apiKey, body: { technicalName: `entry${n}`, baseTerm: 'E' } }),
        server.api('PATCH', `/entries/${p.entryId}`, { key: who.apiKey, body: { baseTerm: `Hello ${n}` } }),
        server.api('PUT', `/entries/${p.entryId}/translations`, { key: who.apiKey, body: { language: 'de', translation: `Hallo ${n}` } }),
        server.api('POST', `/projects/${p.id}/members`, { key: who.apiKey, body: { email: `nobody${n}@example.com`, role: 'viewer' } }),
      ];
      for (const response of await Promise.all(writes(late, 1))) expectError(response, 403, 'ERR_FORBIDDEN');
      for (const [path] of reads(p)) expect((await server.api('GET', path, { key: late.apiKey })).status, path).toBe(200);
      // the first two keep their role (inviting an e-mail without an account makes a pending invitation)
      expect((await Promise.all(writes(second, 2))).map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    });

    it('when an earlier member leaves, the member over the limit regains its role', async () => {
      const { owner, p, members: [first, late] } = await team(['editor', 'editor'], { memberLimit: 1 });
      const createGroup = (name: string) => server.api('POST', `/projects/${p.id}/groups`, { key: late.apiKey, body: { technicalName: name, displayName: name } });
      expectError(await createGroup('before'), 403, 'ERR_FORBIDDEN');
      expect(await memberQuota(p.id, owner)).toEqual({ limit: 1, confirmedCount: 2, overLimitCount: 1 });

      expect((await server.api('DELETE', `/projects/${p.id}/members/${first.id}`, { key: first.apiKey })).status).toBe(204);
      expect((await createGroup('after')).status).toBe(200);
      expect((await getProject(p.id, late)).body.capabilities).toMatchObject({ isOverLimit: false, canEditGroups: true });
      expect(await memberQuota(p.id, owner)).toEqual({ limit: 1, confirmedCount: 1, overLimitCount: 0 });
      expect(await memberRows(p.id, owner)).toEqual([[late.id, 'editor', true, false]]);
    });
  });

  it('GET /projects lists owned and confirmed-member projects, not pending invitations', async () => {
    const me = await user();
    const other = await user();
    const own = await createProject(server, me.apiKey, { name: 'Mine' });
    const joined = await project(other);
    const invited = await project(other);
    await addConfirmedMember(server, other.apiKey, joined.id, me, 'viewer');
    await invite(server, other.apiKey, invited.id, me, 'editor');
    const response = await server.api('GET', '/projects', { key: me.apiKey });
    expect(response.body.total).toBe(2);
    expect(response.body.result.map((item: { id: string }) => item.id)).toEqual([own.id, joined.id]);
  });
});
