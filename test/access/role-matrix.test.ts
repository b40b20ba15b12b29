/**
 * Every route × every kind of caller, with the expected answer derived from the capability table
 * (imported, so a route checking the wrong capability fails here) and the contract's access rules:
 * strangers and pending invitees get 404, members without the capability 403, no key or a revoked
 * key 401, and a member over the member limit keeps read access only. The list is held to the OpenAPI
 * document: every authenticated operation has a row, or is named in SESSION_ONLY with why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesOf, type Capabilities, type Capability } from '../../src/domain/access/capabilities.js';
import type { ErrorCode } from '../../src/errors.js';
import { buildWorld, CONFIRMED_ROLES, createCast, invite, OVER_LIMIT_ROLE, PENDING_ROLE, type Cast, type World } from '../helpers/access.js';
import { runCli } from '../helpers/cli.js';
import { untar } from '../helpers/consumers.js';
import { DIALECTS } from '../helpers/dialects.js';
import { HTTP_METHODS, type OpenApiDocument } from '../helpers/openapi-conformance.js';
import { createEntry, createGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

const PRINCIPALS = ['owner', 'admin', 'editor', 'reviewer', 'translator', 'viewer', 'overLimit', 'pending', 'stranger', 'noKey', 'revokedKey'] as const;
type PrincipalName = (typeof PRINCIPALS)[number];

/** What the capability table grants each caller; null for callers who are not confirmed members. */
function capabilitiesFor(principal: PrincipalName): Capabilities | null {
  switch (principal) {
    case 'owner':
      return capabilitiesOf(null, false);
    case 'admin':
    case 'editor':
    case 'reviewer':
    case 'translator':
    case 'viewer':
      return capabilitiesOf(principal, false);
    case 'overLimit':
      return capabilitiesOf(OVER_LIMIT_ROLE, true);
    default:
      return null;
  }
}

interface Outcome {
  status: number;
  code?: ErrorCode;
}

/** public: no key needed; user: any valid key; project/group/entry/change: the resource the path addresses (change: a change set or change). */
type Scope = 'public' | 'user' | 'project' | 'group' | 'entry' | 'change';

interface Context {
  server: TestServer;
  cast: Cast;
  world: World;
  principal: PrincipalName;
  key: string | null;
  /** the caller's own user id (the owner's for the revoked key, a stranger's without a key) */
  selfId: string;
  unique(prefix: string): string;
  /** the owner invites a new user with `role`; returns the invitation's id (a target no other row uses) */
  freshInvitee(role: 'admin' | 'editor'): Promise<string>;
}

interface RouteCase {
  method: string;
  route: string;
  scope: Scope;
  success: number;
  /** capabilities the caller needs (all of them); [] or absent: any confirmed member or the owner */
  needs?: Capability[];
  /** a rule of the contract that the table alone does not give (evaluated on the caller's capabilities) */
  allowed?: (capabilities: Capabilities) => boolean;
  /** contract rules for particular callers, e.g. the invitee accepting */
  special?: Partial<Record<PrincipalName, Outcome>>;
  /** the call may destroy the project or change its membership: run it in a world of its own */
  freshWorld?: (principal: PrincipalName) => boolean;
  request(context: Context): Promise<{ path: string; body?: unknown }>;
  /** further checks of a successful answer */
  check?(response: ApiResponse, context: Context): Promise<void> | void;
}

const notFoundCode = (scope: Scope): ErrorCode => (scope === 'project' ? 'ERR_PROJECT_NOT_FOUND' : 'ERR_NOT_FOUND');

/** The contract's answer for a caller on a route. */
function expectedOutcome(route: RouteCase, principal: PrincipalName): Outcome {
  if (route.scope === 'public') return { status: route.success };
  if (principal === 'noKey' || principal === 'revokedKey') return { status: 401, code: 'ERR_UNAUTHORIZED' };
  const special = route.special?.[principal];
  if (special) return special;
  if (route.scope === 'user') return { status: route.success };
  const capabilities = capabilitiesFor(principal);
  if (!capabilities) return { status: 404, code: notFoundCode(route.scope) };
  const allowed = route.allowed ? route.allowed(capabilities) : (route.needs ?? []).every((name) => capabilities[name]);
  return allowed ? { status: route.success } : { status: 403, code: 'ERR_FORBIDDEN' };
}

const always = () => true;
const EXPORT_FORMATS = ['json', 'vue-i18n', 'i18next', 'flutter'] as const;

/** The base term of the world's entry (main.sub.greeting) in an export of the format; undefined if it is not there. */
async function greetingIn(format: (typeof EXPORT_FORMATS)[number], response: ApiResponse, { server, world, key }: Context): Promise<unknown> {
  if (format === 'json') return JSON.parse(response.text).en?.main?.sub?.greeting;
  if (format === 'vue-i18n') return JSON.parse(response.text).en?.['main.sub.greeting'];
  // An archive: the answer was decoded as text, so fetch its bytes again (successful reads only).
  const again = await fetch(`${server.baseUrl}/projects/${world.project.id}/export/${format}`, { headers: { authorization: `Bearer ${key}` } });
  const files = await untar(Buffer.from(await again.arrayBuffer()));
  if (format === 'i18next') return JSON.parse(files.get('en/translation.json') ?? '{}').main?.sub?.greeting;
  const english = [...files].find(([name]) => name.endsWith('app_en.arb'));
  return english && JSON.parse(english[1]).mainSubGreeting;
}

const ROUTES: RouteCase[] = [
  { method: 'GET', route: '/version', scope: 'public', success: 200, request: async () => ({ path: '/version' }) },
  { method: 'GET', route: '/locales', scope: 'public', success: 200, request: async () => ({ path: '/locales' }) },
  {
    method: 'GET', route: '/info', scope: 'user', success: 200,
    request: async () => ({ path: '/info' }),
    check: (response, { selfId }) => expect(response.body.id).toBe(selfId),
  },
  {
    // the caller's own profile, whoever it is: the time zone only, which no other row reads
    method: 'PATCH', route: '/info', scope: 'user', success: 200,
    request: async () => ({ path: '/info', body: { timezone: 'Europe/Berlin' } }),
    check: (response, { selfId }) => expect(response.body).toMatchObject({ id: selfId, timezone: 'Europe/Berlin' }),
  },
  {
    method: 'GET', route: '/usage', scope: 'user', success: 200,
    request: async () => ({ path: '/usage' }),
    check: (response) => expect(response.body.remaining).toBe(Math.max(0, response.body.limit - response.body.used)),
  },
  {
    // the caller's own pending invitations: only the pending invitee has one to the world
    method: 'GET', route: '/invitations', scope: 'user', success: 200,
    request: async () => ({ path: '/invitations' }),
    check: (response, { world, principal }) =>
      expect(response.body.some((invitation: { projectId: string }) => invitation.projectId === world.project.id)).toBe(principal === 'pending'),
  },
  {
    method: 'GET', route: '/projects', scope: 'user', success: 200,
    request: async () => ({ path: '/projects?limit=100' }),
    // owned and confirmed-member projects only: never a pending invitation's
    check: (response, { world, principal }) =>
      expect(response.body.result.some((project: { id: string }) => project.id === world.project.id)).toBe(capabilitiesFor(principal) !== null),
  },
  {
    method: 'POST', route: '/projects', scope: 'user', success: 200,
    request: async () => ({ path: '/projects', body: { name: 'Scratch', baseLanguage: 'en', translationLanguages: [] } }),
  },
  {
    method: 'GET', route: '/projects/{id}', scope: 'project', success: 200,
    request: async ({ world }) => ({ path: `/projects/${world.project.id}` }),
    check: (response, { principal }) => {
      expect(response.body.capabilities).toEqual(capabilitiesFor(principal));
      expect(response.body.memberQuota).toEqual({ limit: CONFIRMED_ROLES.length, confirmedCount: CONFIRMED_ROLES.length + 1, overLimitCount: 1 });
    },
  },
  {
    method: 'PATCH', route: '/projects/{id}', scope: 'project', success: 200, needs: ['canUpdateProject'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}`, body: { name: 'Renamed world' } }),
  },
  {
    method: 'DELETE', route: '/projects/{id}', scope: 'project', success: 204, needs: ['canDeleteProject'], freshWorld: always,
    request: async ({ world }) => ({ path: `/projects/${world.project.id}` }),
    check: async (_response, { server, cast, world }) =>
      expect((await server.api('GET', `/projects/${world.project.id}`, { key: cast.owner.apiKey })).status).toBe(404),
  },
  {
    method: 'GET', route: '/projects/{id}/groups', scope: 'project', success: 200, needs: ['canReadGroups'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/groups` }),
  },
  {
    method: 'GET', route: '/projects/{id}/groups?parentId', scope: 'project', success: 200, needs: ['canReadGroups'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/groups?parentId=${world.group.id}` }),
    check: (response, { world }) => expect(response.body.result.map((group: { id: string }) => group.id)).toEqual([world.subGroup.id]),
  },
  {
    method: 'GET', route: '/projects/{id}/groups/summary', scope: 'project', success: 200, needs: ['canReadGroups'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/groups/summary` }),
  },
  {
    method: 'POST', route: '/projects/{id}/groups', scope: 'project', success: 200, needs: ['canEditGroups'],
    request: async ({ world, unique }) => ({ path: `/projects/${world.project.id}/groups`, body: { technicalName: unique('group'), displayName: 'New group' } }),
  },
  {
    method: 'GET', route: '/projects/{id}/entries/untranslated', scope: 'project', success: 200, needs: ['canReadEntries'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/entries/untranslated?languageCode=pt-BR` }),
  },
  {
    // the world's German translation is listed until a review row below reviews it: either way a page
    method: 'GET', route: '/projects/{id}/entries/unreviewed', scope: 'project', success: 200, needs: ['canReadEntries'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/entries/unreviewed?languageCode=de` }),
    check: (response) => {
      expect(response.body).toMatchObject({ limit: 100, offset: 0, total: response.body.result.length });
      for (const item of response.body.result) expect(item.translation).toMatchObject({ language: 'de', state: 'translated' });
    },
  },
  {
    // reviewing the world's German translation (once reviewed, again it changes nothing: 200 all the same)
    method: 'POST', route: '/entries/{id}/translations/review', scope: 'entry', success: 200, needs: ['canReview'],
    request: async ({ world }) => ({ path: `/entries/${world.entry.id}/translations/review`, body: { language: 'de' } }),
    check: (response) => expect(response.body).toMatchObject({ language: 'de', state: 'reviewed', outdated: false }),
  },
  {
    method: 'DELETE', route: '/entries/{id}/translations/review', scope: 'entry', success: 200, needs: ['canReview'],
    request: async ({ world }) => ({ path: `/entries/${world.entry.id}/translations/review`, body: { language: 'de' } }),
    check: (response) => expect(response.body).toMatchObject({ language: 'de', state: 'translated', reviewedBy: null }),
  },
  {
    // confirming is a translator's: a current translation stays as it is (200)
    method: 'POST', route: '/entries/{id}/translations/confirm', scope: 'entry', success: 200, needs: ['canTranslate'],
    request: async ({ world }) => ({ path: `/entries/${world.entry.id}/translations/confirm`, body: { language: 'de' } }),
    check: (response) => expect(response.body).toMatchObject({ language: 'de', outdated: false }),
  },
  {
    method: 'POST', route: '/projects/{id}/reviews', scope: 'project', success: 200, needs: ['canReview'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/reviews`, body: { language: 'de', entryIds: [world.entry.id] } }),
    check: (response) => expect(response.body.reviewed + response.body.unchanged).toBe(1),
  },
  ...EXPORT_FORMATS.map(
    (format): RouteCase => ({
      method: 'GET', route: `/projects/{id}/export/${format}`, scope: 'project', success: 200, needs: ['canReadEntries'],
      request: async ({ world }) => ({ path: `/projects/${world.project.id}/export/${format}` }),
      // every reader gets the whole project: the world's entry (its base term, which no row changes) is in it
      check: async (response, context) => expect(await greetingIn(format, response, context)).toBe('Hello'),
    }),
  ),
  {
    method: 'GET', route: '/projects/{id}/checks', scope: 'project', success: 200, needs: ['canReadEntries'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/checks` }),
    check: (response) => expect(response.body).toMatchObject({ offset: 0, total: expect.any(Number), result: expect.any(Array) }),
  },
  {
    method: 'GET', route: '/projects/{id}/progress', scope: 'project', success: 200, needs: ['canReadEntries'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/progress` }),
    check: (response) => {
      expect(response.body.entryCount).toBeGreaterThanOrEqual(1);
      expect(response.body.languages.map((item: { language: string }) => item.language)).toEqual(['de', 'pt-BR']);
    },
  },
  {
    // a translation of an existing entry only (a new text each time, so it is always a write): canTranslate
    method: 'POST', route: '/projects/{id}/import (translations only)', scope: 'project', success: 200, needs: ['canTranslate'],
    request: async ({ world, unique }) => ({
      path: `/projects/${world.project.id}/import?format=json&mode=overwrite`,
      body: { de: { main: { sub: { greeting: unique('Hallo ') } } } },
    }),
    check: (response) => expect(response.body).toMatchObject({ dryRun: false, groups: { created: 0 }, entries: { created: 0 }, translations: { updated: 1 } }),
  },
  {
    // a new entry asks for canEditEntries: an import asking more than the caller may do → 403
    method: 'POST', route: '/projects/{id}/import (a new entry)', scope: 'project', success: 200, needs: ['canEditEntries'],
    request: async ({ world, unique }) => ({
      path: `/projects/${world.project.id}/import?format=json`,
      body: { en: { main: { sub: { [unique('imported')]: 'Imported text' } } } },
    }),
    check: (response) => expect(response.body).toMatchObject({ dryRun: false, groups: { created: 0 }, entries: { created: 1 } }),
  },
  {
    // the history is read access: every reader sees the world's writes (its entry's creation among them)
    method: 'GET', route: '/projects/{id}/change-sets', scope: 'project', success: 200, needs: ['canReadEntries'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/change-sets?limit=100` }),
    check: (response, { world }) => {
      expect(response.body.total).toBeGreaterThanOrEqual(4);
      for (const set of response.body.result) expect(set.projectId).toBe(world.project.id);
    },
  },
  {
    method: 'GET', route: '/projects/{id}/changes', scope: 'project', success: 200, needs: ['canReadEntries'],
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/changes?entryId=${world.entry.id}&afterVersion=0` }),
    check: (response, { world }) =>
      expect(response.body.result.slice(0, 2).map((change: { target: string; op: string; entryId: string }) => [change.target, change.op, change.entryId])).toEqual([
        ['entry', 'create', world.entry.id],
        ['translation', 'create', world.entry.id],
      ]),
  },
  {
    // reading the member list is read access: every confirmed member, the over-limit one included
    method: 'GET', route: '/projects/{id}/members', scope: 'project', success: 200,
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/members` }),
  },
  {
    method: 'POST', route: '/projects/{id}/members (role editor)', scope: 'project', success: 200, needs: ['canManageMembers'],
    request: async ({ server, world }) => ({ path: `/projects/${world.project.id}/members`, body: { email: (await server.user()).email, role: 'editor' } }),
    check: (response) => expect(response.body).toMatchObject({ role: 'editor', confirmed: false }),
  },
  {
    method: 'POST', route: '/projects/{id}/members (role admin)', scope: 'project', success: 200, needs: ['canManageMembers', 'canAssignAdminRole'],
    request: async ({ server, world }) => ({ path: `/projects/${world.project.id}/members`, body: { email: (await server.user()).email, role: 'admin' } }),
    check: (response) => expect(response.body).toMatchObject({ role: 'admin', confirmed: false }),
  },
  {
    // the invitee accepts (confirmed members: idempotent); the owner has no invitation to accept
    method: 'POST', route: '/projects/{id}/members/accept', scope: 'project', success: 200,
    special: { pending: { status: 200 }, owner: { status: 404, code: 'ERR_NOT_FOUND' } },
    freshWorld: (principal) => principal === 'pending',
    request: async ({ world }) => ({ path: `/projects/${world.project.id}/members/accept` }),
    check: (response, { selfId }) => expect(response.body).toMatchObject({ userId: selfId, confirmed: true }),
  },
  {
    method: 'PATCH', route: '/projects/{id}/members/{userId} (editor → translator)', scope: 'project', success: 200, needs: ['canManageMembers'],
    request: async ({ world, freshInvitee }) => ({ path: `/projects/${world.project.id}/members/${await freshInvitee('editor')}`, body: { role: 'translator' } }),
    check: (response) => expect(response.body.role).toBe('translator'),
  },
  {
    method: 'PATCH', route: '/projects/{id}/members/{userId} (editor → admin)', scope: 'project', success: 200, needs: ['canManageMembers', 'canAssignAdminRole'],
    request: async ({ world, freshInvitee }) => ({ path: `/projects/${world.project.id}/members/${await freshInvitee('editor')}`, body: { role: 'admin' } }),
    check: (response) => expect(response.body.role).toBe('admin'),
  },
  {
    method: 'PATCH', route: '/projects/{id}/members/{userId} (admin → viewer)', scope: 'project', success: 200, needs: ['canManageMembers', 'canAssignAdminRole'],
    request: async ({ world, freshInvitee }) => ({ path: `/projects/${world.project.id}/members/${await freshInvitee('admin')}`, body: { role: 'viewer' } }),
    check: (response) => expect(response.body.role).toBe('viewer'),
  },
  {
    method: 'DELETE', route: '/projects/{id}/members/{userId} (an editor)', scope: 'project', success: 204, needs: ['canManageMembers'],
    request: async ({ world, freshInvitee }) => ({ path: `/projects/${world.project.id}/members/${await freshInvitee('editor')}` }),
  },
  {
    method: 'DELETE', route: '/projects/{id}/members/{userId} (an admin)', scope: 'project', success: 204, needs: ['canManageMembers', 'canAssignAdminRole'],
    request: async ({ world, freshInvitee }) => ({ path: `/projects/${world.project.id}/members/${await freshInvitee('admin')}` }),
  },
  {
    // leaving (an invitee declining): canLeave, which the over-limit member keeps and the owner lacks
    method: 'DELETE', route: '/projects/{id}/members/{self} (leave)', scope: 'project', success: 204, needs: ['canLeave'],
    special: { pending: { status: 204 } },
    freshWorld: always,
    request: async ({ world, selfId }) => ({ path: `/projects/${world.project.id}/members/${selfId}` }),
    check: async (_response, { server, world, key }) => expect((await server.api('GET', `/projects/${world.project.id}`, { key })).status).toBe(404),
  },
  {
    // nobody removes the owner (not even an admin): the owner transfers the ownership instead
    method: 'DELETE', route: '/projects/{id}/members/{ownerId}', scope: 'project', success: 204, allowed: () => false,
    request: async ({ world, cast }) => ({ path: `/projects/${world.project.id}/members/${cast.owner.id}` }),
  },
  {
    method: 'POST', route: '/projects/{id}/transfer-ownership', scope: 'project', success: 200, needs: ['canTransferOwnership'], freshWorld: always,
    request: async ({ world, cast }) => ({ path: `/projects/${world.project.id}/transfer-ownership`, body: { userId: cast.viewer.id } }),
    check: (response, { cast }) => expect(response.body.ownerId).toBe(cast.viewer.id),
  },
  {
    method: 'GET', route: '/groups/{id}', scope: 'group', success: 200, needs: ['canReadGroups'],
    request: async ({ world }) => ({ path: `/groups/${world.subGroup.id}` }),
  },
  {
    method: 'PATCH', route: '/groups/{id}', scope: 'group', success: 200, needs: ['canEditGroups'],
    request: async ({ world }) => ({ path: `/groups/${world.subGroup.id}`, body: { displayName: 'Renamed sub-group' } }),
  },
  {
    method: 'DELETE', route: '/groups/{id}', scope: 'group', success: 204, needs: ['canEditGroups'],
    request: async ({ server, cast, world, unique }) => ({ path: `/groups/${(await createGroup(server, cast.owner.apiKey, world.project.id, unique('doomed'), world.group.id)).id}` }),
  },
  {
    method: 'GET', route: '/groups/{id}/entries', scope: 'group', success: 200, needs: ['canReadEntries'],
    request: async ({ world }) => ({ path: `/groups/${world.subGroup.id}/entries` }),
  },
  {
    method: 'POST', route: '/groups/{id}/entries', scope: 'group', success: 200, needs: ['canEditEntries'],
    request: async ({ world, unique }) => ({ path: `/groups/${world.subGroup.id}/entries`, body: { technicalName: unique('entry'), baseTerm: 'New text' } }),
  },
  {
    method: 'GET', route: '/entries/{id}', scope: 'entry', success: 200, needs: ['canReadEntries'],
    request: async ({ world }) => ({ path: `/entries/${world.entry.id}` }),
  },
  {
    method: 'PATCH', route: '/entries/{id}', scope: 'entry', success: 200, needs: ['canEditEntries'],
    request: async ({ world }) => ({ path: `/entries/${world.entry.id}`, body: { contextInfo: 'Shown on the start page' } }),
  },
  {
    method: 'DELETE', route: '/entries/{id}', scope: 'entry', success: 204, needs: ['canEditEntries'],
    request: async ({ server, cast, world, unique }) => ({ path: `/entries/${(await createEntry(server, cast.owner.apiKey, world.subGroup.id, unique('doomed'))).id}` }),
  },
  {
    method: 'PUT', route: '/entries/{id}/translations', scope: 'entry', success: 200, needs: ['canTranslate'],
    request: async ({ world }) => ({ path: `/entries/${world.entry.id}/translations`, body: { language: 'pt-BR', translation: 'Olá' } }),
  },
  {
    method: 'DELETE', route: '/entries/{id}/translations', scope: 'entry', success: 204, needs: ['canTranslate'],
    request: async ({ server, cast, world, unique }) => {
      const entry = await createEntry(server, cast.owner.apiKey, world.subGroup.id, unique('doomed'));
      await setTranslation(server, cast.owner.apiKey, entry.id, 'de', 'Weg damit');
      return { path: `/entries/${entry.id}/translations`, body: { language: 'de' } };
    },
  },
  {
    // a revert needs what the writes it undoes needed: here a translation's, canTranslate
    method: 'POST', route: '/change-sets/{id}/revert', scope: 'change', success: 200, needs: ['canTranslate'],
    request: async ({ server, cast, world, unique }) => {
      const entry = await createEntry(server, cast.owner.apiKey, world.subGroup.id, unique('undone'));
      await setTranslation(server, cast.owner.apiKey, entry.id, 'de', 'Zurück damit');
      const sets = await server.api('GET', `/projects/${world.project.id}/change-sets?limit=1`, { key: cast.owner.apiKey });
      return { path: `/change-sets/${sets.body.result[0].id}/revert` };
    },
    check: (response) => expect(response.body).toMatchObject({ dryRun: false, restored: 1, changeSet: { source: 'revert' } }),
  },
  {
    // an entry's rename undone needs canEditEntries
    method: 'POST', route: '/changes/{id}/revert', scope: 'change', success: 200, needs: ['canEditEntries'],
    request: async ({ server, cast, world, unique }) => {
      const entry = await createEntry(server, cast.owner.apiKey, world.subGroup.id, unique('renamed'));
      const renamed = await server.api('PATCH', `/entries/${entry.id}`, { key: cast.owner.apiKey, body: { technicalName: unique('renamedAgain') } });
      expect(renamed.status, renamed.text).toBe(200);
      const changes = await server.api('GET', `/projects/${world.project.id}/changes?entryId=${entry.id}&target=entry&limit=1`, { key: cast.owner.apiKey });
      return { path: `/changes/${changes.body.result[0].id}/revert` };
    },
    check: (response) => expect(response.body).toMatchObject({ restored: 1, changeSet: { summary: { created: 0, updated: 1, deleted: 0 } } }),
  },
];

/**
 * The authenticated operations the matrix leaves out, and why: each takes the web application's
 * session only (an API key gets 403), so the key-by-role matrix has nothing to say about them.
 */
const SESSION_ONLY: Readonly<Record<string, string>> = {
  'POST /auth/sign-out': 'ends the web session it is made with',
  'PUT /auth/password': "checks the current password and ends the user's other sessions",
  'POST /auth/verify-email/resend': 'mails a new verification link to the signed-in account',
  'GET /keys': 'lists the API keys in the settings page; a key does not list keys',
  'POST /keys': 'makes an API key; a key does not make keys',
  'DELETE /keys/{id}': 'revokes an API key from the settings page',
};

/** The OpenAPI path template a row exercises: its label without the query or the `(…)` note, member ids named as the route names them. */
const templateOf = (route: string) =>
  route
    .replace(/ \(.*\)$/, '')
    .replace(/\?.*$/, '')
    .replace(/\{(ownerId|self)\}/g, '{userId}');

/** `METHOD /template` of every operation the document marks as needing a key or a session. */
function authenticatedOperations(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => (item[method]?.security ?? []).length > 0).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe.each(DIALECTS)('the role matrix on %s', (dialect) => {
  let server: TestServer;
  let cast: Cast;
  let world: World;
  let counter = 0;
  /** one world shared by the refused calls of world-destroying routes, rebuilt if a call got through anyway */
  let spareWorld: World | undefined;

  beforeAll(async () => {
    server = await startServer(dialect);
    cast = await createCast(server, (args) => runCli(server.databaseUrl, args));
    world = await buildWorld(server, cast);
  });
  afterAll(() => server?.close());

  const keyOf = (principal: PrincipalName): string | null =>
    principal === 'noKey' ? null : principal === 'revokedKey' ? cast.revokedKey : cast[principal].apiKey;
  const selfIdOf = (principal: PrincipalName): string =>
    principal === 'noKey' ? cast.stranger.id : principal === 'revokedKey' ? cast.owner.id : cast[principal].id;

  /** The shared world, unless the call may destroy it: a success gets a world of its own, a refusal the spare one. */
  async function worldFor(route: RouteCase, principal: PrincipalName, expected: Outcome): Promise<World> {
    if (!route.freshWorld?.(principal)) return world;
    if (expected.status < 300) return buildWorld(server, cast);
    return (spareWorld ??= await buildWorld(server, cast));
  }

  it('sets the world up as the matrix assumes: five members within the limit (one per role), one over it, one pending', async () => {
    const asOwner = await server.api('GET', `/projects/${world.project.id}`, { key: cast.owner.apiKey });
    expect(asOwner.body.memberQuota).toEqual({ limit: 5, confirmedCount: 6, overLimitCount: 1 });
    const asOverLimit = await server.api('GET', `/projects/${world.project.id}`, { key: cast.overLimit.apiKey });
    expect(asOverLimit.body.capabilities).toMatchObject({ role: OVER_LIMIT_ROLE, isOverLimit: true, canManageMembers: false });
    const members = await server.api('GET', `/projects/${world.project.id}/members`, { key: cast.owner.apiKey });
    expect(members.body.result.map((m: { userId: string; role: string; confirmed: boolean; isOverLimit: boolean }) => [m.userId, m.role, m.confirmed, m.isOverLimit])).toEqual([
      ...CONFIRMED_ROLES.map((role) => [cast[role].id, role, true, false]),
      [cast.overLimit.id, OVER_LIMIT_ROLE, true, true],
      // the invitation's own id (not the account's) and no names while pending
      [expect.stringMatching(/^[a-z][0-9a-z]{23}$/), PENDING_ROLE, false, false],
    ]);
    // the owner's revoked key is refused even though its user owns the project
    expect((await server.api('GET', '/info', { key: cast.revokedKey })).status).toBe(401);
  });

  it('has a row for every authenticated operation the app registers, or names it as session-only', async () => {
    const document = (await server.api('GET', '/openapi.json')).body as OpenApiDocument;
    const authenticated = authenticatedOperations(document);
    const rows = ROUTES.filter((route) => route.scope !== 'public').map((route) => `${route.method} ${templateOf(route.route)}`);
    // a route added without a matrix row (or a reason to leave it out) fails here
    expect(authenticated.filter((operation) => !rows.includes(operation) && !(operation in SESSION_ONLY))).toEqual([]);
    // and the other way round: a mistyped label would make the first check vacuous
    expect(rows.filter((operation) => !authenticated.includes(operation))).toEqual([]);
    for (const operation of Object.keys(SESSION_ONLY)) {
      const [method, template] = operation.split(' ') as [string, string];
      expect(document.paths[template]?.[method.toLowerCase() as (typeof HTTP_METHODS)[number]]?.security, operation).toEqual([{ web_session: [] }]);
    }
  });

  it('refuses a key on the session-only operations (403), and answers 401 without one', async () => {
    for (const operation of Object.keys(SESSION_ONLY)) {
      const [method, template] = operation.split(' ') as [string, string];
      const path = template.replace('{id}', 'no-such-id');
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const withKey = await server.api(method, path, { key: cast.owner.apiKey, body });
      expect(withKey.status, `${operation}: ${withKey.text}`).toBe(403);
      expect(withKey.body.code).toBe('ERR_FORBIDDEN');
      expect((await server.api(method, path, { body })).status, operation).toBe(401);
    }
  });

  for (const route of ROUTES) {
    for (const principal of PRINCIPALS) {
      const expected = expectedOutcome(route, principal);
      const label = `${route.method} ${route.route} as ${principal} → ${expected.status}${expected.code ? ` ${expected.code}` : ''}`;
      it(label, async () => {
        const context: Context = {
          server,
          cast,
          world: await worldFor(route, principal, expected),
          principal,
          key: keyOf(principal),
          selfId: selfIdOf(principal),
          unique: (prefix) => `${prefix}${++counter}`,
          freshInvitee: async (role) => {
            const user = await server.user();
            // a pending invitation is named by its own id until it is accepted
            return (await invite(server, cast.owner.apiKey, context.world.project.id, user, role)).userId;
          },
        };
        const { path, body } = await route.request(context);
        const response = await server.api(route.method, path, { key: context.key, body });
        if (context.world === spareWorld && response.status < 300) spareWorld = undefined;
        expect(response.status, response.text).toBe(expected.status);
        if (expected.code) {
          expect(response.body).toEqual({ statusCode: expected.status, code: expected.code, message: expect.any(String) });
        } else {
          if (expected.status === 204) expect(response.text).toBe('');
          await route.check?.(response, context);
        }
      });
    }
  }
});
