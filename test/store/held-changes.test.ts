/**
 * Migration 014: a change set of one change holds it in its own row, a larger set's changes are rows
 * of `changes`, and a set recorded before 014 keeps its one change as a row of `changes`. On both
 * stores, the two forms read, revert and prune alike: a set is turned into the form recorded before
 * 014 here (its change moved to `changes`), and every reader is asked about it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneHistory } from '../../src/domain/changes/retention.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(DIALECTS)('sets holding their one change, and sets recorded before, on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  const get = async (path: string) => {
    const response = await server.api('GET', path, { key: owner.apiKey });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };

  /** Moves the set's one change out of its row into `changes`, as a set recorded before migration 014 kept it. */
  async function recordedBefore014(setId: string): Promise<void> {
    const db = server.store.db;
    const set = await db.selectFrom('change_sets').selectAll().where('id', '=', setId).executeTakeFirstOrThrow();
    expect(set.target).not.toBeNull();
    await db
      .insertInto('changes')
      .values({
        change_set_id: set.id,
        project_id: set.project_id,
        version: set.version,
        target: set.target!,
        op: set.op!,
        group_id: set.group_id,
        entry_id: set.entry_id,
        language: set.language,
        key: set.key,
        before_json: set.before_json,
        after_json: set.after_json,
      })
      .execute();
    await db
      .updateTable('change_sets')
      .set({ target: null, op: null, group_id: null, entry_id: null, language: null, key: null, before_json: null, after_json: null })
      .where('id', '=', setId)
      .execute();
  }

  it('a save holds its change in its set: one row, the change id is the set id', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'title', 'Title');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Titel');
    const [latest] = (await get(`/projects/${project.id}/change-sets?limit=1`)).result;
    const rows = await server.store.db.selectFrom('changes').select('id').where('project_id', '=', project.id).execute();
    expect(rows).toEqual([]);
    const { result } = await get(`/projects/${project.id}/changes?changeSetId=${latest.id}`);
    expect(result).toMatchObject([{ id: latest.id, changeSetId: latest.id, target: 'translation', op: 'create', language: 'de', after: { text: 'Titel', state: 'translated', outdated: false } }]);
  });

  it('reads a set recorded before 014 as before: its change listed, found by id, reverted, its set reverted, with the held ones around it', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'title', 'Title');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Titel');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Überschrift');
    const sets = (await get(`/projects/${project.id}/change-sets`)).result;
    // (another page size than below: history pages are kept per content version, which a change moved by hand does not move)
    const heldView = (await get(`/projects/${project.id}/changes?entryId=${entry.id}&limit=50`)).result;
    // the first save's set, as recorded before 014
    await recordedBefore014(sets[1].id);
    const page = (await get(`/projects/${project.id}/changes?entryId=${entry.id}`)).result;
    expect(page).toHaveLength(3);
    expect(page[1].id).toMatch(/^[1-9]\d*$/);
    // the same answer but the moved change's id
    expect(page.map(({ id: _id, ...change }: any) => change)).toEqual(heldView.map(({ id: _id, ...change }: any) => change));
    expect(page.map((change: any) => change.version)).toEqual([...page.map((change: any) => change.version)].sort((a: number, b: number) => b - a));
    expect((await get(`/projects/${project.id}/changes?entryId=${entry.id}&afterVersion=0`)).result.map((change: any) => change.id)).toEqual(page.map((change: any) => change.id).reverse());
    expect((await get(`/projects/${project.id}/changes?changeSetId=${sets[1].id}`)).result).toEqual([page[1]]);
    expect((await get(`/projects/${project.id}/change-sets?language=de`)).total).toBe(2);

    // its change's revert: a conflict (the later save), then by the set with skip, unchanged counts nothing
    const byChange = await server.api('POST', `/changes/${page[1].id}/revert?dryRun=true`, { key: owner.apiKey });
    expect(byChange.status, byChange.text).toBe(200);
    expect(byChange.body).toMatchObject({ restored: 0, conflicts: [{ changeId: page[1].id, current: { text: 'Überschrift' } }] });
    // the newest (held) save undone, then the older (moved) one: back to no translation
    expect((await server.api('POST', `/change-sets/${sets[0].id}/revert`, { key: owner.apiKey })).body).toMatchObject({ restored: 1 });
    const undone = await server.api('POST', `/change-sets/${sets[1].id}/revert`, { key: owner.apiKey });
    expect(undone.body, undone.text).toMatchObject({ restored: 1, totals: { conflicts: 0 } });
    const translations = (await get(`/entries/${entry.id}`)).translations;
    expect(translations.filter((translation: any) => translation.language === 'de')).toEqual([]);
    const after = (await get(`/projects/${project.id}/change-sets`)).result;
    expect(after.find((set: any) => set.id === sets[1].id).revertedBy).toBe(after[0].id);
  });

  it("prunes both forms alike: each object's newest change stays, wherever it is kept", async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'label', 'Label');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Etikett');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Beschriftung');
    await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', 'Étiquette');
    const sets = (await get(`/projects/${project.id}/change-sets`)).result;
    // the newest de save as recorded before 014 (its older held one must go, it must stay); the pt-BR save held
    await recordedBefore014(sets[1].id);
    await server.store.db.updateTable('change_sets').set({ created_at: new Date(Date.now() - 40 * DAY).toISOString() }).where('project_id', '=', project.id).execute();
    expect(await pruneHistory(server.store.db, 30)).toBe(1);
    const left = (await get(`/projects/${project.id}/changes?afterVersion=0`)).result.map((change: any) => [change.target, change.language, change.after?.text ?? change.after?.technicalName]);
    expect(left).toEqual([
      ['group', null, 'main'],
      ['entry', null, 'label'],
      ['translation', 'de', 'Beschriftung'],
      ['translation', 'pt-BR', 'Étiquette'],
    ]);
    expect((await get(`/projects/${project.id}/change-sets`)).total).toBe(4);
    expect(await pruneHistory(server.store.db, 30)).toBe(0);
  });
});
