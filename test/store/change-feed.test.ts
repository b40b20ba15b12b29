/**
 * The in-process change feed (issue 32: the hook webhooks and live updates will use): each committed
 * write announces its change set once, after commit, with its project, version and source; a refused
 * write, a write that changes nothing and a dry run announce nothing. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeFeedOf, type ChangeAnnouncement } from '../../src/store/content-writes/change-feed.js';
import type { Database } from '../../src/store/schema.js';
import type { Kysely } from 'kysely';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createProjectWithGroup } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

describe.each(DIALECTS)('the change feed on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  const heard: ChangeAnnouncement[] = [];
  let stop: () => void;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
    stop = changeFeedOf(server.store.db as Kysely<Database>).subscribe((announcement) => heard.push(announcement));
  });
  afterAll(async () => {
    stop?.();
    await server?.close();
  });

  const latestSet = async (projectId: string) => (await server.api('GET', `/projects/${projectId}/change-sets?limit=1`, { key: owner.apiKey })).body.result[0];

  it('announces each committed write once, with its set; nothing for refusals, no-ops and dry runs', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'title', 'Title');
    heard.length = 0;

    const saved = await server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de', translation: 'Titel' } });
    expect(saved.status).toBe(200);
    const set = await latestSet(project.id);
    expect(heard).toEqual([{ projectId: project.id, version: set.version, changeSetId: set.id, source: 'api', userId: owner.id }]);

    heard.length = 0;
    const viewer = await server.user();
    await addMember(server, project.id, viewer.id, 'viewer');
    expect((await server.api('PUT', `/entries/${entry.id}/translations`, { key: viewer.apiKey, body: { language: 'de', translation: 'Nein' } })).status).toBe(403);
    expect((await server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de', translation: 'Titel' } })).status).toBe(200);
    const dry = await server.api('POST', `/projects/${project.id}/import?format=json&dryRun=true`, { key: owner.apiKey, body: { en: { main: { fresh: 'Fresh' } } } });
    expect(dry.status, dry.text).toBe(200);
    expect(await server.api('POST', `/change-sets/${set.id}/revert?dryRun=true`, { key: owner.apiKey })).toMatchObject({ status: 200 });
    expect(heard).toEqual([]);

    const imported = await server.api('POST', `/projects/${project.id}/import?format=json`, { key: owner.apiKey, body: { en: { main: { fresh: 'Fresh' } } } });
    const reverted = await server.api('POST', `/change-sets/${imported.body.changeSetId}/revert`, { key: owner.apiKey });
    expect(heard.map((announcement) => [announcement.changeSetId, announcement.source])).toEqual([
      [imported.body.changeSetId, 'import'],
      [reverted.body.changeSet.id, 'revert'],
    ]);
  });
});
