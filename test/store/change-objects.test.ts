/**
 * Where the sets holding one change are found by entry and by group (migration 017,
 * store/content-writes/change-objects.ts), on both stores: the history by entry and by group, a
 * revert's "changed by", and retention answer the same wherever the project's mapping stands; the
 * write of every MAP_EVERY-th version maps the sets before it; the migration maps what was recorded
 * before it.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneHistory } from '../../src/domain/changes/retention.js';
import { MAP_EVERY, mapChangeObjects } from '../../src/store/content-writes/change-objects.js';
import * as migration from '../../src/store/migrations/017-change-objects.js';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createGroup, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServerWithUsers, type TestServer, type TestUser } from '../helpers/server.js';

describe.each(DIALECTS)('change_objects on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    ({ server, owner } = await startServerWithUsers(dialect));
  });
  afterAll(() => server?.close());

  const ok = async (method: string, path: string, body?: unknown, key = owner.apiKey) => {
    const response = await server.api(method, path, { key, body });
    expect([200, 204], `${method} ${path}: ${response.status} ${response.text}`).toContain(response.status);
    return response.body;
  };
  const versionOf = async (projectId: string) =>
    Number((await server.store.db.selectFrom('projects').select('content_version').where('id', '=', projectId).executeTakeFirstOrThrow()).content_version);
  const mappedVersionOf = async (projectId: string) =>
    Number((await server.store.db.selectFrom('projects').select('log_mapped_version').where('id', '=', projectId).executeTakeFirstOrThrow()).log_mapped_version);

  /** Every history read by entry and by group the API offers, for these objects: pages, filters, feeds and totals. */
  const historyOf = async (projectId: string, entryIds: readonly string[], groupIds: readonly string[]) => {
    const reads: Record<string, unknown> = {};
    const queries = (name: string, id: string) => [`${name}=${id}`, `${name}=${id}&language=de`, `${name}=${id}&offset=2&limit=3`, `${name}=${id}&afterVersion=4`, `${name}=${id}&target=translation&limit=5`];
    for (const query of [...entryIds.flatMap((id) => queries('entryId', id)), ...groupIds.flatMap((id) => queries('groupId', id))]) {
      const { result, total } = await ok('GET', `/projects/${projectId}/changes?${query}`);
      reads[query] = { total, result: result.map((change: any) => [change.id, change.version, change.target, change.op, change.language, change.before, change.after]) };
    }
    return reads;
  };

  it('answers the history by entry and by group the same wherever the mapping stands, and after more writes', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const other = await createGroup(server, owner.apiKey, project.id, 'other');
    const entries = [];
    for (const name of ['title', 'body', 'footer']) entries.push(await createEntry(server, owner.apiKey, group.id, name));
    const [title, body, footer] = entries as [any, any, any];
    for (let round = 1; round <= 3; round += 1) {
      for (const entry of entries) await setTranslation(server, owner.apiKey, entry.id, round % 2 ? 'de' : 'pt-BR', `Text ${round} of ${entry.technicalName}`);
    }
    const side = await createEntry(server, owner.apiKey, other.id, 'side');
    await setTranslation(server, owner.apiKey, side.id, 'de', 'Seite');
    await ok('PATCH', `/groups/${other.id}`, { displayName: 'Other texts' });
    await ok('PATCH', `/entries/${title.id}`, { baseTerm: 'The title' });
    await ok('DELETE', `/entries/${body.id}/translations`, { language: 'pt-BR' });
    const ids = [[...entries, side].map((entry) => entry.id), [group.id, other.id]] as const;

    const unmapped = await historyOf(project.id, ...ids);
    expect((unmapped[`entryId=${title.id}`] as { total: number }).total).toBe(5);
    // mapped in part, then in full: the same answers
    await mapChangeObjects(server.store.db, project.id, (await versionOf(project.id)) - 4);
    expect(await mappedVersionOf(project.id)).toBe((await versionOf(project.id)) - 4);
    expect(await historyOf(project.id, ...ids)).toEqual(unmapped);
    await mapChangeObjects(server.store.db, project.id, await versionOf(project.id));
    expect(await historyOf(project.id, ...ids)).toEqual(unmapped);
    // a mapping never moves back
    await mapChangeObjects(server.store.db, project.id, 3);
    expect(await mappedVersionOf(project.id)).toBe(await versionOf(project.id));

    // writes after the mapping are found beside the mapped ones, and a deleted entry's history stays
    await setTranslation(server, owner.apiKey, footer.id, 'de', 'Fußzeile');
    await ok('DELETE', `/entries/${footer.id}`);
    const after = await historyOf(project.id, ...ids);
    const footerHistory = after[`entryId=${footer.id}`] as { total: number; result: unknown[][] };
    expect(footerHistory.total).toBe(6);
    expect(footerHistory.result.slice(0, 2).map((change) => [change[2], change[3]])).toEqual([
      ['entry', 'delete'],
      ['translation', 'update'],
    ]);
    await mapChangeObjects(server.store.db, project.id, await versionOf(project.id));
    expect(await historyOf(project.id, ...ids)).toEqual(after);
  });

  it('maps the sets before it at the write of every MAP_EVERY-th version', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'title');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Titel');
    const before = await historyOf(project.id, [entry.id], [group.id]);
    // the project's versions skip ahead to just below the mark: the next two writes are MAP_EVERY - 1 and MAP_EVERY
    await server.store.db.updateTable('projects').set({ content_version: MAP_EVERY - 2 }).where('id', '=', project.id).execute();
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Überschrift');
    expect(await mappedVersionOf(project.id)).toBe(0);
    await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', 'Título');
    expect(await mappedVersionOf(project.id)).toBe(MAP_EVERY);
    // each set holding one change, under its entry and its group: the group's create, the entry's, three saves
    const held = await server.store.db.selectFrom('change_sets').select(['entry_id', 'group_id', 'version']).where('project_id', '=', project.id).where('target', 'is not', null).execute();
    expect(held.map((set) => Number(set.version)).sort((a, b) => a - b).slice(-2)).toEqual([MAP_EVERY - 1, MAP_EVERY]);
    const mapped = await server.store.db.selectFrom('change_objects').select(['object_id', 'version']).where('project_id', '=', project.id).execute();
    const expected = held.flatMap((set) => [set.entry_id, set.group_id].filter((id) => id !== null).map((id) => `${id}/${Number(set.version)}`));
    expect(expected).toHaveLength(9);
    expect(mapped.map((row) => `${row.object_id}/${Number(row.version)}`).sort()).toEqual(expected.sort());
    const history = (await historyOf(project.id, [entry.id], [group.id]))[`entryId=${entry.id}`] as { total: number };
    expect(history.total).toBe((before[`entryId=${entry.id}`] as { total: number }).total + 2);
  });

  it("names who changed a conflicting object since, from the mapped sets and from those after them", async () => {
    const translator = await server.user();
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    await addMember(server, project.id, translator.id, 'translator');
    const entry = await createEntry(server, owner.apiKey, group.id, 'title');
    const saved = await ok('PUT', `/entries/${entry.id}/translations`, { language: 'de', translation: 'Titel' });
    const setId = (await ok('GET', `/projects/${project.id}/change-sets?limit=1`)).result[0].id;
    expect(saved.translation).toBe('Titel');
    await setTranslation(server, translator.apiKey, entry.id, 'de', 'Überschrift');
    const conflictOf = async () => (await ok('POST', `/change-sets/${setId}/revert?dryRun=true`)).conflicts[0];
    const unmapped = await conflictOf();
    expect(unmapped.changedBy.id).toBe(translator.id);
    await mapChangeObjects(server.store.db, project.id, await versionOf(project.id));
    expect(await conflictOf()).toEqual(unmapped);
    // the newest change after the mapping wins over the mapped ones
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Kopfzeile');
    expect((await conflictOf()).changedBy.id).toBe(owner.id);
  });

  it("prunes with the sets mapped first, keeps each object's newest change, and takes the pruned sets' rows out of change_objects", async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'title');
    for (const text of ['Titel', 'Überschrift', 'Kopf']) await setTranslation(server, owner.apiKey, entry.id, 'de', text);
    await mapChangeObjects(server.store.db, project.id, 3);
    await server.store.db.updateTable('change_sets').set({ created_at: new Date(Date.now() - 40 * 86_400_000).toISOString() }).where('project_id', '=', project.id).execute();
    // the group's and the entry's creates and de's last save stay; de's first two saves go
    expect(await pruneHistory(server.store.db, 30)).toBe(2);
    const history = await ok('GET', `/projects/${project.id}/changes?entryId=${entry.id}`);
    expect(history.result.map((change: any) => [change.target, change.op, change.after?.text ?? null])).toEqual([
      ['translation', 'update', 'Kopf'],
      ['entry', 'create', null],
    ]);
    expect(await mappedVersionOf(project.id)).toBe(await versionOf(project.id));
    const rows = await server.store.db.selectFrom('change_objects').select('version').where('project_id', '=', project.id).execute();
    const kept = await server.store.db.selectFrom('change_sets').select('version').where('project_id', '=', project.id).where('target', 'is not', null).execute();
    expect(new Set(rows.map((row) => Number(row.version)))).toEqual(new Set(kept.map((row) => Number(row.version))));
    expect(rows).toHaveLength(2 * kept.length - 1);
  });

  it('the migration maps the sets recorded before it and sets each project mapped up to its version', async () => {
    const db = server.store.db as unknown as Kysely<unknown>;
    await migration.down(db);
    try {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'title');
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Titel');
    } finally {
      await migration.up(db);
    }
    const projects = await server.store.db.selectFrom('projects').select(['id', 'content_version', 'log_mapped_version']).execute();
    for (const project of projects) expect(Number(project.log_mapped_version)).toBe(Number(project.content_version));
    const held = await server.store.db.selectFrom('change_sets').select(['entry_id', 'group_id', 'version', 'project_id']).where('target', 'is not', null).execute();
    const mapped = await server.store.db.selectFrom('change_objects').select(['object_id', 'version', 'project_id']).execute();
    const expected = held.flatMap((set) => [set.entry_id, set.group_id].filter((id) => id !== null).map((id) => `${set.project_id}/${id}/${Number(set.version)}`));
    expect(mapped.map((row) => `${row.project_id}/${row.object_id}/${Number(row.version)}`).sort()).toEqual(expected.sort());
  });
});
