/**
 * HISTORY_RETENTION_DAYS (CONTRACT "History: Retention"), on both stores: changes older than the
 * retention go, each object's newest change stays (its "last changed by" and a one-step undo), a set
 * left without changes goes, newer history is untouched; a server started with the setting prunes on
 * start; a bad value stops the start with a reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { pruneHistory } from '../../src/domain/changes/retention.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(DIALECTS)('history retention on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  const changesOf = async (projectId: string) => {
    const response = await server.api('GET', `/projects/${projectId}/changes?afterVersion=0`, { key: owner.apiKey });
    expect(response.status, response.text).toBe(200);
    return response.body.result.map((change: any) => [change.target, change.op, change.language, change.after?.text ?? change.after?.baseTerm ?? null]);
  };

  it("prunes what is older than the retention but each object's newest change, and the sets left empty", async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'title', 'Title');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Titel');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Überschrift');
    await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { baseTerm: 'Heading' } });
    // all of that 40 days ago; then one write today
    const old = new Date(Date.now() - 40 * DAY).toISOString();
    await server.store.db.updateTable('change_sets').set({ created_at: old }).where('project_id', '=', project.id).execute();
    await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', 'Título');
    const setsBefore = (await server.api('GET', `/projects/${project.id}/change-sets`, { key: owner.apiKey })).body.total;
    expect(setsBefore).toBe(6);

    expect(await pruneHistory(server.store.db, 30)).toBe(2);
    // the entry's create and de's first save go: the group's create, de's last save, the entry's base term edit and today's pt-BR save stay
    expect(await changesOf(project.id)).toEqual([
      ['group', 'create', null, null],
      ['translation', 'update', 'de', 'Überschrift'],
      ['entry', 'update', null, 'Heading'],
      ['translation', 'create', 'pt-BR', 'Título'],
    ]);
    const sets = (await server.api('GET', `/projects/${project.id}/change-sets`, { key: owner.apiKey })).body;
    expect(sets.total).toBe(4);
    // a second prune finds nothing more; a longer retention keeps everything
    expect(await pruneHistory(server.store.db, 30)).toBe(0);
    expect(await pruneHistory(server.store.db, 60)).toBe(0);
  });

  it('a server started with the setting prunes on start', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'label', 'Label');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Etikett');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Beschriftung');
    await server.store.db.updateTable('change_sets').set({ created_at: new Date(Date.now() - 10 * DAY).toISOString() }).where('project_id', '=', project.id).execute();
    const countOf = async () => (await server.api('GET', `/projects/${project.id}/changes`, { key: owner.apiKey })).body.total;
    expect(Number(await countOf())).toBe(4);
    // a second app on the same store, as a restarted instance: it prunes once it is ready
    const second = await buildApp({ store: server.store, logLevel: 'silent', historyRetentionDays: 7 });
    try {
      await second.ready();
      await expect.poll(async () => Number(await countOf()), { timeout: 10_000 }).toBe(3);
    } finally {
      await second.close();
    }
  });
});

describe('HISTORY_RETENTION_DAYS', () => {
  it('takes a whole number of days; anything else stops the start with a reason', () => {
    expect(loadConfig({}).historyRetentionDays).toBeUndefined();
    expect(loadConfig({ HISTORY_RETENTION_DAYS: '90' }).historyRetentionDays).toBe(90);
    for (const bad of ['0', '-1', '1.5', 'ninety', '36501', '1e3']) {
      expect(() => loadConfig({ HISTORY_RETENTION_DAYS: bad }), bad).toThrow(/HISTORY_RETENTION_DAYS must be a whole number of days/);
    }
  });
});
