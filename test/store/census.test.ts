/**
 * The census of content writes (issue 32, CONTRACT "History"): every mutating operation of the API that
 * touches a project's content, called the ways it changes something and the ways it changes nothing
 * (refused, or a no-op), on both stores. For each call the project is read through the API before and
 * after, and the difference (content-snapshot.ts) is what the change log must hold: the content version
 * rises if and only if the API shows a change; a rise has exactly one change set at the new version, of
 * the caller's user, key and source, whose changes are that difference (before/after, key, group, entry,
 * language) and whose summary counts them by op. The list of operations is held to the OpenAPI
 * document: a new mutating operation fails here until it has cases or a reason to have none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPasswordForEmail } from '../../src/domain/accounts/account-use-cases.js';
import { changeCount } from '../../src/store/content-writes/change-bundles.js';
import { fieldsFromLog } from '../../src/store/content-writes/change-log.js';
import { findChangeSet, listChangesOfSet } from '../../src/store/repositories/revert-reads.js';
import { openBrowserSession } from '../helpers/browser-session.js';
import { asShown, changesBetween, inOrder, readSnapshot, type CensusChange } from '../helpers/content-snapshot.js';
import { DIALECTS } from '../helpers/dialects.js';
import { HTTP_METHODS, type OpenApiDocument } from '../helpers/openapi-conformance.js';
import { addMember, createEntry, createGroup, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';
import { CENSUS_CASES, NOT_CONTENT } from './census/cases.js';
import type { Caller, CallerName, CensusCase, World } from './census/world.js';

const PASSWORD = 'census horse battery';

/** `METHOD /template` of every operation of the document that may change something. */
function mutatingOperations(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => method !== 'get' && item[method]).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe.each(DIALECTS)('the census of content writes on %s', (dialect) => {
  let server: TestServer;
  const callers = {} as Record<CallerName, Caller>;
  let ownerKey: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    const keyIdOf = async (userId: string) =>
      (await server.store.db.selectFrom('api_keys').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow()).id;
    const keyCaller = async (user: { id: string; apiKey: string }): Promise<Caller> => ({
      userId: user.id,
      keyId: await keyIdOf(user.id),
      source: 'api',
      call: (method, path, options = {}) => server.api(method, path, { ...options, key: user.apiKey }),
    });
    const owner = await server.user({ dailyQuota: 1_000_000, memberLimit: 10 });
    ownerKey = owner.apiKey;
    callers.owner = await keyCaller(owner);
    for (const name of ['editor', 'translator', 'viewer'] as const) callers[name] = await keyCaller(await server.user({ dailyQuota: 1_000_000 }));
    await setPasswordForEmail(server.store.db, owner.email, PASSWORD);
    const session = await openBrowserSession(server, { email: owner.email, password: PASSWORD });
    callers.web = { userId: owner.id, keyId: null, source: 'web', call: (method, path, { rawBody, ...options } = {}) => {
        if (rawBody) throw new Error('the web app sends JSON bodies only');
        return session.call(method, path, options);
      },
    };
  });
  afterAll(() => server?.close());

  /** A project of the owner: main (entries title; sub: greeting with de), other, and the members editor, translator, viewer. */
  async function buildWorld(options: { topLevel?: boolean; empty?: boolean } = {}): Promise<World> {
    const project = await createProject(server, ownerKey, { name: 'Census' });
    for (const role of ['editor', 'translator', 'viewer'] as const) await addMember(server, project.id, callers[role].userId, role);
    if (options.empty) return { project } as World;
    const main = await createGroup(server, ownerKey, project.id, 'main');
    const sub = await createGroup(server, ownerKey, project.id, 'sub', main.id);
    const other = await createGroup(server, ownerKey, project.id, 'other');
    const greeting = await createEntry(server, ownerKey, sub.id, 'greeting', 'Hello');
    await setTranslation(server, ownerKey, greeting.id, 'de', 'Hallo');
    const title = await createEntry(server, ownerKey, main.id, 'title', 'Title');
    const world: World = { project, main, sub, other, greeting, title };
    if (options.topLevel) {
      const imported = await server.api('POST', `/projects/${project.id}/import?format=json`, { key: ownerKey, body: { en: { appName: 'App' } } });
      expect(imported.status, imported.text).toBe(200);
      const groups = await server.api('GET', `/projects/${project.id}/groups`, { key: ownerKey });
      world.topLevel = groups.body.result.find((group: { technicalName: string }) => group.technicalName === '');
      const entries = await server.api('GET', `/groups/${world.topLevel!.id}/entries`, { key: ownerKey });
      world.appName = entries.body.result[0];
    }
    return world;
  }

  const versionOf = async (projectId: string) =>
    Number((await server.store.db.selectFrom('projects').select('content_version').where('id', '=', projectId).executeTakeFirstOrThrow()).content_version);

  const logCounts = async (projectId: string) => ({
    sets: Number((await server.store.db.selectFrom('change_sets').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow()).n),
    // a set holding its one change (migration 014) counts it, a bundle (migration 015) each of its own
    changes:
      Number((await server.store.db.selectFrom('changes').select(changeCount('changes').as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow()).n) +
      Number((await server.store.db.selectFrom('change_sets').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', projectId).where('target', 'is not', null).executeTakeFirstOrThrow()).n),
  });

  /** The changes of a set, in the census's words. */
  async function recordedChanges(setId: string): Promise<(CensusChange & { version: number; projectId: string })[]> {
    const set = await findChangeSet(server.store.db, setId);
    const rows = set ? await listChangesOfSet(server.store.db, set) : [];
    return rows.map((row) => ({
      target: row.target as CensusChange['target'],
      op: row.op as CensusChange['op'],
      groupId: row.group_id,
      entryId: row.entry_id,
      language: row.language,
      key: row.key,
      before: asShown(fieldsFromLog(row.target, row.before_json)),
      after: asShown(fieldsFromLog(row.target, row.after_json)),
      version: Number(row.version),
      projectId: row.project_id,
    }));
  }

  /** Runs one case and checks the census's rule on its answer. */
  async function census(item: CensusCase): Promise<void> {
    const world = await buildWorld(item.world);
    const prepared = await item.prepare({ server, world, callers, ownerKey });
    const caller = callers[prepared.caller ?? 'owner'];
    const projectId = world.project.id;
    const before = await readSnapshot(server, ownerKey, projectId);
    const versionBefore = await versionOf(projectId);
    const countsBefore = await logCounts(projectId);

    const { method, path, body, rawBody, headers } = prepared.request;
    expect(`${method} `).toBe(item.operation.slice(0, method.length + 1));
    const response: ApiResponse = await caller.call(method, path, { ...(body === undefined ? {} : { body }), ...(rawBody ? { rawBody } : {}), ...(headers ? { headers } : {}) });
    expect(response.status, response.text).toBe(item.status);

    const expected = [...changesBetween(before, await readSnapshot(server, ownerKey, projectId)), ...(prepared.unseen ?? [])];
    // The case says how many objects its call changes: a call that silently did nothing fails here, not vacuously below.
    expect(expected.length, JSON.stringify(expected)).toBe(item.changes);
    const versionAfter = await versionOf(projectId);
    const sets = await server.store.db.selectFrom('change_sets').selectAll().where('project_id', '=', projectId).where('version', '>', versionBefore).execute();
    if (expected.length === 0) {
      expect(versionAfter, 'a call that changes nothing leaves the content version').toBe(versionBefore);
      expect(sets).toEqual([]);
      expect(await logCounts(projectId)).toEqual(countsBefore);
      await prepared.check?.(response, null);
      return;
    }
    expect(versionAfter).toBeGreaterThan(versionBefore);
    expect(sets, 'one change set per rise').toHaveLength(1);
    const set = sets[0]!;
    expect({ version: Number(set.version), source: set.source, userId: set.user_id, apiKeyId: set.api_key_id, revertOf: set.revert_of }).toEqual({
      version: versionAfter,
      source: prepared.source ?? caller.source,
      userId: caller.userId,
      apiKeyId: caller.keyId,
      revertOf: prepared.revertOf ?? null,
    });
    const recorded = await recordedChanges(set.id);
    expect(recorded.every((change) => change.version === versionAfter && change.projectId === projectId)).toBe(true);
    expect(inOrder(recorded.map(({ version: _v, projectId: _p, ...change }) => change))).toEqual(inOrder(expected));
    const byOp = (op: string) => recorded.filter((change) => change.op === op).length;
    expect({ created: Number(set.created_count), updated: Number(set.updated_count), deleted: Number(set.deleted_count) }).toEqual({
      created: byOp('create'),
      updated: byOp('update'),
      deleted: byOp('delete'),
    });
    // Nothing recorded beside the set.
    expect(await logCounts(projectId)).toEqual({ sets: countsBefore.sets + 1, changes: countsBefore.changes + recorded.length });
    await prepared.check?.(response, { id: set.id, summary: { created: byOp('create'), updated: byOp('update'), deleted: byOp('delete') } });
  }

  it('has cases for every mutating operation of the API, or names it as no content write with why', async () => {
    const document = (await server.api('GET', '/openapi.json')).body as OpenApiDocument;
    const mutating = mutatingOperations(document);
    const covered = new Set(CENSUS_CASES.map((item) => item.operation));
    // a route added without census cases (or a reason to leave it out) fails here
    expect(mutating.filter((operation) => !covered.has(operation) && !(operation in NOT_CONTENT))).toEqual([]);
    // and the other way round: a mistyped label would make the first check vacuous
    expect([...covered, ...Object.keys(NOT_CONTENT)].filter((operation) => !mutating.includes(operation))).toEqual([]);
    expect([...covered].filter((operation) => operation in NOT_CONTENT)).toEqual([]);
    // each content operation is seen changing something and changing nothing
    for (const operation of covered) {
      const cases = CENSUS_CASES.filter((item) => item.operation === operation);
      expect(cases.some((item) => item.changes > 0), `${operation} changing something`).toBe(true);
      expect(cases.some((item) => item.changes === 0 && item.status >= 400), `${operation} refused`).toBe(true);
    }
  });

  for (const item of CENSUS_CASES) {
    const outcome = item.changes === 0 ? 'records nothing' : `records ${item.changes} change(s)`;
    it(`${item.operation}: ${item.name} → ${item.status}, ${outcome}`, () => census(item));
  }

  it('creating a project records nothing: its history starts empty', async () => {
    const project = await createProject(server, ownerKey, { name: 'Fresh' });
    expect(await logCounts(project.id)).toEqual({ sets: 0, changes: 0 });
  });

  it('members, invitations and ownership are no history: they record nothing and leave the content version', async () => {
    const world = await buildWorld();
    const projectId = world.project.id;
    const versionBefore = await versionOf(projectId);
    const countsBefore = await logCounts(projectId);
    const invitee = await server.user();
    const calls: [string, string, unknown?][] = [
      ['POST', `/projects/${projectId}/members`, { email: invitee.email, role: 'editor' }],
      ['PATCH', `/projects/${projectId}/members/${callers.viewer.userId}`, { role: 'translator' }],
      ['DELETE', `/projects/${projectId}/members/${callers.viewer.userId}`],
      ['POST', `/projects/${projectId}/transfer-ownership`, { userId: callers.editor.userId }],
    ];
    for (const [method, path, body] of calls) {
      const response = await server.api(method, path, { key: ownerKey, ...(body === undefined ? {} : { body }) });
      expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
    }
    const accepted = await server.api('POST', `/projects/${projectId}/members/accept`, { key: invitee.apiKey });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await versionOf(projectId)).toBe(versionBefore);
    expect(await logCounts(projectId)).toEqual(countsBefore);
  });

  it('deleting a project removes its change sets and their changes', async () => {
    const world = await buildWorld();
    const projectId = world.project.id;
    const setIds = (await server.store.db.selectFrom('change_sets').select('id').where('project_id', '=', projectId).execute()).map((row) => row.id);
    expect(setIds.length).toBeGreaterThan(0);
    const deleted = await server.api('DELETE', `/projects/${projectId}`, { key: ownerKey });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await logCounts(projectId)).toEqual({ sets: 0, changes: 0 });
    const orphans = await server.store.db.selectFrom('changes').select('id').where('change_set_id', 'in', setIds).execute();
    expect(orphans).toEqual([]);
  });
});
