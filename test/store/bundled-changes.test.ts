/**
 * Migration 015: an import records its translation changes one row of `changes` per entry and op (a
 * bundle), and every reader takes each language as a change of its own. On both stores: the rows an
 * import writes, and that the bundle's changes list, page, count, filter by language, feed, are found
 * and reverted by their own ids, name who changed a translation last, and are pruned per language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneHistory } from '../../src/domain/changes/retention.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(DIALECTS)("an import's translations bundled per entry, on %s", (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
    const response = await server.api(method, path, { key: owner.apiKey, ...(body === undefined ? {} : { body }) });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };

  /** A project (en, with de and fr) and two imports: its entries created with their translations, then de and fr of `menu.open` overwritten and fr of `menu.close` added. */
  async function importedTwice() {
    const project = await createProject(server, owner.apiKey, { translationLanguages: ['de', 'fr'] });
    const first = await call('POST', `/projects/${project.id}/import?format=json`, {
      en: { menu: { open: 'Open', close: 'Close' } },
      de: { menu: { open: 'Öffnen', close: 'Schließen' } },
      fr: { menu: { open: 'Ouvrir' } },
    });
    const second = await call('POST', `/projects/${project.id}/import?format=json&mode=overwrite`, {
      de: { menu: { open: 'Aufmachen' } },
      fr: { menu: { open: 'Ouvre', close: 'Fermer' } },
    });
    const entries = (await call('GET', `/projects/${project.id}/changes?target=entry&afterVersion=0`)).result;
    const entryId = (key: string) => entries.find((change: any) => change.key === key).entryId as string;
    return { project, firstSet: first.changeSetId as string, secondSet: second.changeSetId as string, open: entryId('menu.open'), close: entryId('menu.close') };
  }

  const textOf = (change: any) => [change.op, change.key, change.language, change.before?.text ?? null, change.after?.text ?? null];

  it('writes one row per entry and op, and lists each translation as a change of its own, with its own id', async () => {
    const { project, firstSet, secondSet, open } = await importedTwice();
    const rows = await server.store.db.selectFrom('changes').select(['version', 'entry_id', 'language', 'bundled', 'op']).where('project_id', '=', project.id).where('target', '=', 'translation').execute();
    // the first import: two entries' creates (2 and 1 languages beside the base term's); the second: open's update of both, close's create of fr
    expect(rows.map((row) => [Number(row.bundled), row.language, row.op]).sort()).toEqual([
      [1, null, 'create'],
      [1, null, 'create'],
      [2, null, 'create'],
      [2, null, 'update'],
    ]);
    const changes = (await call('GET', `/projects/${project.id}/changes?changeSetId=${secondSet}`)).result;
    expect(changes.map(textOf)).toEqual([
      ['create', 'menu.close', 'fr', null, 'Fermer'],
      ['update', 'menu.open', 'fr', 'Ouvrir', 'Ouvre'],
      ['update', 'menu.open', 'de', 'Öffnen', 'Aufmachen'],
    ]);
    for (const change of changes) {
      expect(change.id).toMatch(new RegExp(`^[1-9][0-9]*\\.${change.language}$`));
      expect(change.after).toEqual({ text: change.after.text, state: 'translated', outdated: false });
    }
    expect(new Set(changes.map((change: any) => change.id)).size).toBe(3);
    // the entry's history: each import's change in each language, counted alike
    const ofOpen = await call('GET', `/projects/${project.id}/changes?entryId=${open}&target=translation`);
    expect(ofOpen.total).toBe(4);
    expect(ofOpen.result.map(textOf)).toEqual([
      ['update', 'menu.open', 'fr', 'Ouvrir', 'Ouvre'],
      ['update', 'menu.open', 'de', 'Öffnen', 'Aufmachen'],
      ['create', 'menu.open', 'fr', null, 'Ouvrir'],
      ['create', 'menu.open', 'de', null, 'Öffnen'],
    ]);
    const inFr = await call('GET', `/projects/${project.id}/changes?entryId=${open}&language=fr`);
    expect(inFr.total).toBe(2);
    expect(inFr.result.map(textOf)).toEqual([ofOpen.result[0], ofOpen.result[2]].map(textOf));
    // pages cut across a bundle as across rows, and the feed runs oldest first
    const all = await call('GET', `/projects/${project.id}/changes`);
    const paged = [];
    for (let offset = 0; offset < all.total; offset += 2) paged.push(...(await call('GET', `/projects/${project.id}/changes?limit=2&offset=${offset}`)).result);
    expect(paged).toEqual(all.result);
    expect((await call('GET', `/projects/${project.id}/changes?afterVersion=0`)).result).toEqual([...all.result].reverse());
    // the sets' language filter looks into the bundles
    const setsIn = async (language: string) => (await call('GET', `/projects/${project.id}/change-sets?language=${language}`)).result.map((set: any) => set.id).sort();
    expect(await setsIn('fr')).toEqual([firstSet, secondSet].sort());
    expect(await setsIn('de')).toEqual([firstSet, secondSet].sort());
    // one change found by its id; the bundle's own row id names none
    const [closeFr] = changes;
    const dry = await call('POST', `/changes/${closeFr.id}/revert?dryRun=true`);
    expect(dry).toMatchObject({ restored: 1, totals: { conflicts: 0 } });
    const rowId = closeFr.id.split('.')[0];
    for (const id of [rowId, `${rowId}.it`, `${rowId}.de`]) expect((await server.api('POST', `/changes/${id}/revert?dryRun=true`, { key: owner.apiKey })).status, id).toBe(404);
  });

  it("reverts one language of a bundle, a whole import, and names the import as a translation's last change", async () => {
    const { project, secondSet, open, close } = await importedTwice();
    const changes = (await call('GET', `/projects/${project.id}/changes?changeSetId=${secondSet}`)).result;
    const openDe = changes.find((change: any) => change.language === 'de');
    const reverted = await call('POST', `/changes/${openDe.id}/revert`);
    expect(reverted).toMatchObject({ restored: 1, totals: { conflicts: 0 } });
    const texts = async (entryId: string) => Object.fromEntries((await call('GET', `/entries/${entryId}`)).translations.map((t: any) => [t.language, t.translation]));
    expect(await texts(open)).toEqual({ de: 'Öffnen', fr: 'Ouvre' });
    // a save after the import: reverting the import leaves it, as a conflict by whoever saved it
    await call('PUT', `/entries/${close}/translations`, { language: 'fr', translation: 'Fermez' });
    const undone = await server.api('POST', `/change-sets/${secondSet}/revert?onConflict=skip`, { key: owner.apiKey });
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body.conflicts).toMatchObject([{ target: 'translation', language: 'fr', key: 'menu.close', current: { text: 'Fermez' }, changedBy: { id: owner.id } }]);
    expect(await texts(open)).toEqual({ de: 'Öffnen', fr: 'Ouvrir' });
    expect(await texts(close)).toEqual({ de: 'Schließen', fr: 'Fermez' });
    // a save, then an import over it: the save's revert conflicts, and names the import as the last change (its time, not the save's)
    await call('PUT', `/entries/${close}/translations`, { language: 'de', translation: 'Zu' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await call('POST', `/projects/${project.id}/import?format=json&mode=overwrite`, { de: { menu: { close: 'Zumachen' } } });
    const [importSet, saveSet] = (await call('GET', `/projects/${project.id}/change-sets?limit=2`)).result;
    expect([importSet.source, saveSet.source]).toEqual(['import', 'api']);
    expect(importSet.createdAt).not.toBe(saveSet.createdAt);
    const conflict = await server.api('POST', `/change-sets/${saveSet.id}/revert?dryRun=true`, { key: owner.apiKey });
    expect(conflict.body.conflicts, conflict.text).toMatchObject([{ language: 'de', current: { text: 'Zumachen' }, changedBy: { id: owner.id }, changedAt: importSet.createdAt }]);
  });

  it('prunes a bundle once each of its languages has a later change, and keeps it while one has none', async () => {
    const { project, firstSet, open, close } = await importedTwice();
    await server.store.db.updateTable('change_sets').set({ created_at: new Date(Date.now() - 40 * DAY).toISOString() }).where('project_id', '=', project.id).execute();
    // open's create bundle (de, fr): both overwritten by the second import, so it goes; close's (de) has no later change, so it stays
    const pruned = await pruneHistory(server.store.db, 30);
    expect(pruned).toBe(2);
    const left = (await call('GET', `/projects/${project.id}/changes?changeSetId=${firstSet}&target=translation`)).result;
    expect(left.map(textOf)).toEqual([['create', 'menu.close', 'de', null, 'Schließen']]);
    expect((await call('GET', `/projects/${project.id}/changes?entryId=${open}&target=translation`)).total).toBe(2);
    expect((await call('GET', `/projects/${project.id}/changes?entryId=${close}&target=translation`)).total).toBe(2);
    expect(await pruneHistory(server.store.db, 30)).toBe(0);
  });
});
