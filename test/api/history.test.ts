/**
 * Reading the history (CONTRACT "History"): GET /projects/{id}/change-sets and /changes after writes of
 * every kind made over the API (translations, entries, groups with a subtree, the project, an import,
 * a web session): the fields, before/after and keys, each filter, the afterVersion feed, paging, a
 * deleted entry's and a deleted group's history, and who may read it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession } from '../helpers/browser-session.js';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createGroup, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

describe.each(DIALECTS)('history on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;
  let ownerKeyId: string;
  let webUser: { id: string };
  let projectId: string;
  let importSetId: string;
  const ids = {} as Record<'auth' | 'login' | 'submit' | 'doomed' | 'legacy' | 'old' | 'oldEntry', string>;

  const key = () => owner.apiKey;
  const ok = async (method: string, path: string, body?: unknown, status = 200) => {
    const response = await server.api(method, path, { key: key(), ...(body === undefined ? {} : { body }) });
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
    return response.body;
  };

  beforeAll(async () => {
    server = await startServer(dialect);
    [owner, viewer, stranger] = [await server.user(), await server.user(), await server.user()];
    ownerKeyId = (await server.store.db.selectFrom('api_keys').select('id').where('user_id', '=', owner.id).executeTakeFirstOrThrow()).id;
    const project = await createProject(server, key(), { name: 'Shop app', baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'] });
    projectId = project.id;
    await addMember(server, projectId, viewer.id, 'viewer');

    ids.auth = (await createGroup(server, key(), projectId, 'auth')).id;
    ids.login = (await createGroup(server, key(), projectId, 'login', ids.auth)).id;
    ids.submit = (await createEntry(server, key(), ids.login, 'submit', 'Sign in')).id;
    await setTranslation(server, key(), ids.submit, 'de', 'Anmelden');
    await setTranslation(server, key(), ids.submit, 'de', 'Einloggen');
    await setTranslation(server, key(), ids.submit, 'pt-BR', 'Entrar');
    await ok('DELETE', `/entries/${ids.submit}/translations`, { language: 'pt-BR' }, 204);
    await ok('PATCH', `/entries/${ids.submit}`, { baseTerm: 'Log in' });
    await ok('PATCH', `/groups/${ids.login}`, { displayName: 'Login form' });
    await ok('PATCH', `/projects/${projectId}`, { name: 'Shop app 2' });

    ids.doomed = (await createEntry(server, key(), ids.auth, 'doomed', 'Gone soon')).id;
    await setTranslation(server, key(), ids.doomed, 'de', 'Bald weg');
    await ok('DELETE', `/entries/${ids.doomed}`, undefined, 204);

    ids.legacy = (await createGroup(server, key(), projectId, 'legacy')).id;
    ids.old = (await createGroup(server, key(), projectId, 'old', ids.legacy)).id;
    ids.oldEntry = (await createEntry(server, key(), ids.old, 'oldTitle', 'Old title')).id;
    await setTranslation(server, key(), ids.oldEntry, 'de', 'Alter Titel');
    await ok('DELETE', `/groups/${ids.legacy}`, undefined, 204);

    const imported = await ok('POST', `/projects/${projectId}/import?format=json`, { en: { imported: { title: 'Imported' } }, de: { imported: { title: 'Importiert' } } });
    importSetId = imported.changeSetId;

    const session = await openBrowserSession(server, { email: `history-${Date.now()}@example.com`, password: 'a long enough secret' }, { firstName: 'Web', lastName: 'Writer' });
    webUser = session.user;
    await addMember(server, projectId, webUser.id, 'translator');
    const saved = await session.call('PUT', `/entries/${ids.submit}/translations`, { body: { language: 'pt-BR', translation: 'Iniciar sessão' } });
    expect(saved.status, saved.text).toBe(200);
  });
  afterAll(() => server?.close());

  const list = async (what: 'change-sets' | 'changes', query = '', as = key()) => {
    const response = await server.api('GET', `/projects/${projectId}/${what}${query}`, { key: as });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const changesOf = async (query: string) => (await list('changes', query)).result;
  const summaryOf = (change: any) => `${change.target} ${change.op}${change.language ? ` ${change.language}` : ''}`;

  it('lists one change set per write, newest first, with who, how and what', async () => {
    const page = await list('change-sets');
    // the 20 writes of beforeAll: 18 with the owner's key, the import, the web session's
    expect(page).toMatchObject({ limit: 100, offset: 0, total: 20 });
    const versions = page.result.map((set: any) => set.version);
    expect(versions).toEqual([...versions].sort((a: number, b: number) => b - a));
    expect(new Set(versions).size).toBe(versions.length);
    const [web, imported] = page.result;
    expect(web).toEqual({
      id: expect.any(String),
      projectId,
      version: versions[0],
      source: 'web',
      user: { id: webUser.id, firstName: 'Web', lastName: 'Writer' },
      apiKeyId: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      summary: { created: 1, updated: 0, deleted: 0 },
      revertOf: null,
      revertedBy: null,
      imported: null,
    });
    expect(imported).toMatchObject({ id: importSetId, source: 'import', apiKeyId: ownerKeyId, summary: { created: 3, updated: 0, deleted: 0 } });
    // what it imported, by target, and from which format (the Activity's "imported 1 translation (json)"); no other set says so
    expect(imported.imported).toEqual({ format: 'json', translations: 1, entries: 1, groups: 1 });
    expect(page.result.filter((set: any) => set.id !== importSetId).every((set: any) => set.imported === null)).toBe(true);
    const byOwner = page.result.filter((set: any) => set.source === 'api');
    expect(byOwner.length).toBe(18);
    for (const set of byOwner) expect(set).toMatchObject({ user: { id: owner.id, firstName: expect.stringMatching(/^First/), lastName: expect.stringMatching(/^Last/) }, apiKeyId: ownerKeyId, revertedBy: null });
  });

  it("keeps a translation's, an entry's and a group's changes with their before, after and key", async () => {
    const changes = await changesOf(`?entryId=${ids.submit}`);
    expect(changes.map(summaryOf)).toEqual([
      'translation create pt-BR',
      'entry update',
      'translation delete pt-BR',
      'translation create pt-BR',
      'translation update de',
      'translation create de',
      'entry create',
    ]);
    for (const change of changes) expect(change).toMatchObject({ entryId: ids.submit, groupId: ids.login, key: 'auth.login.submit' });
    const [web, baseTerm, removed, , updated, , createdEntry] = changes;
    expect(web).toMatchObject({ source: 'web', user: { id: webUser.id }, before: null, after: { text: 'Iniciar sessão', state: 'translated', outdated: false } });
    expect(baseTerm).toMatchObject({ before: { baseTerm: 'Sign in', technicalName: 'submit', contextInfo: null, groupId: ids.login }, after: { baseTerm: 'Log in' } });
    expect(removed).toMatchObject({ language: 'pt-BR', before: { text: 'Entrar' }, after: null });
    expect(updated).toMatchObject({ before: { text: 'Anmelden' }, after: { text: 'Einloggen' } });
    expect(createdEntry).toMatchObject({ language: null, before: null, after: { technicalName: 'submit', baseTerm: 'Sign in', contextInfo: null, groupId: ids.login } });
    expect(typeof createdEntry.id).toBe('string');
    // a change alone in its set is the set's own row (migration 014): its id is the set's
    expect(createdEntry.id).toBe(createdEntry.changeSetId);
    // a change repeats its set's version, user, source and time
    const sets = (await list('change-sets', '?limit=100')).result;
    const set = sets.find((item: any) => item.id === updated.changeSetId);
    expect(updated).toMatchObject({ version: set.version, source: set.source, createdAt: set.createdAt, user: set.user });
  });

  it("lists a group's own changes and those of its entries by groupId, not its parent's", async () => {
    const changes = await changesOf(`?groupId=${ids.login}`);
    expect(changes.filter((change: any) => change.target === 'group').map((change: any) => change.op)).toEqual(['update', 'create']);
    expect(changes.filter((change: any) => change.entryId === ids.submit)).toHaveLength(7);
    expect(changes.length).toBe(9);
    const [rename] = changes.filter((change: any) => change.target === 'group');
    expect(rename).toMatchObject({ key: 'auth.login', groupId: ids.login, entryId: null, before: { displayName: 'login', parentId: ids.auth }, after: { displayName: 'Login form' } });
  });

  it('records the project change with its fields and no key', async () => {
    const [change] = await changesOf('?target=project');
    expect(change).toMatchObject({ target: 'project', op: 'update', key: null, groupId: null, entryId: null, language: null });
    expect(change.before).toEqual({ name: 'Shop app', baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'], keyStyle: 'camelCase' });
    expect(change.after).toMatchObject({ name: 'Shop app 2' });
  });

  it("still lists a deleted entry's history, the delete's before holding its translations", async () => {
    const changes = await changesOf(`?entryId=${ids.doomed}`);
    expect(changes.map(summaryOf)).toEqual(['entry delete', 'translation create de', 'entry create']);
    expect(changes[0]).toMatchObject({ key: 'auth.doomed', after: null, before: { technicalName: 'doomed', baseTerm: 'Gone soon', groupId: ids.auth } });
    expect(changes[0].before.translations).toEqual([{ language: 'de', text: 'Bald weg', state: 'translated', outdated: false }]);
  });

  it("records a group delete as one change whose before holds the whole subtree, serialized whole", async () => {
    const sets = (await list('change-sets')).result;
    const deleted = (await changesOf(`?groupId=${ids.legacy}`))[0];
    expect(deleted).toMatchObject({ target: 'group', op: 'delete', key: 'legacy', after: null });
    expect(sets.find((set: any) => set.id === deleted.changeSetId).summary).toEqual({ created: 0, updated: 0, deleted: 1 });
    expect(await changesOf(`?changeSetId=${deleted.changeSetId}`)).toHaveLength(1);
    expect(deleted.before).toEqual({
      technicalName: 'legacy',
      displayName: 'legacy',
      parentId: null,
      entries: [],
      groups: [
        {
          technicalName: 'old',
          displayName: 'old',
          groups: [],
          entries: [{ technicalName: 'oldTitle', baseTerm: 'Old title', contextInfo: null, arbMetadata: null, translations: [{ language: 'de', text: 'Alter Titel', state: 'translated', outdated: false }] }],
        },
      ],
    });
  });

  it("lists an import's changes by its changeSetId, source import", async () => {
    const changes = await changesOf(`?changeSetId=${importSetId}`);
    expect(changes.map(summaryOf).sort()).toEqual(['entry create', 'group create', 'translation create de']);
    expect(changes.every((change: any) => change.changeSetId === importSetId && change.source === 'import')).toBe(true);
    // a set of several changes numbers each of them: a row's number, or a translation of an import's bundle (migration 015) as its row's number and its language
    expect(changes.map((change: any) => /^[1-9]\d*$/.test(change.id) || (change.target === 'translation' && change.id.endsWith(`.${change.language}`)))).not.toContain(false);
    const titles = changes.filter((change: any) => change.key === 'imported.title');
    expect(titles.length).toBeGreaterThanOrEqual(2);
    expect((await changesOf('?source=import')).map((change: any) => change.id).sort()).toEqual(changes.map((change: any) => change.id).sort());
  });

  it('filters by target, language, user and source, on changes and change sets', async () => {
    const translations = await changesOf('?target=translation&language=de');
    expect(translations.length).toBeGreaterThan(0);
    expect(translations.every((change: any) => change.target === 'translation' && change.language === 'de')).toBe(true);
    expect((await changesOf('?language=pt-BR')).map(summaryOf)).toEqual(['translation create pt-BR', 'translation delete pt-BR', 'translation create pt-BR']);
    const web = await changesOf(`?userId=${webUser.id}`);
    expect(web.map(summaryOf)).toEqual(['translation create pt-BR']);
    expect((await changesOf('?source=web')).map((change: any) => change.id)).toEqual(web.map((change: any) => change.id));
    expect((await list('change-sets', `?userId=${webUser.id}`)).result.map((set: any) => set.source)).toEqual(['web']);
    expect((await list('change-sets', '?source=import')).result.map((set: any) => set.id)).toEqual([importSetId]);
    expect((await list('change-sets', `?userId=${stranger.id}`))).toMatchObject({ total: 0, result: [] });
  });

  it('filters changes by op, and change sets by a language their changes are in', async () => {
    const deletes = await changesOf('?op=delete');
    expect(deletes.map(summaryOf)).toEqual(['group delete', 'entry delete', 'translation delete pt-BR']);
    expect((await changesOf('?op=delete&target=entry')).map((change: any) => change.key)).toEqual(['auth.doomed']);
    expect((await changesOf('?op=update&target=entry')).map(summaryOf)).toEqual(['entry update']);
    expect((await changesOf('?op=create')).every((change: any) => change.op === 'create' && change.before === null)).toBe(true);

    const setsIn = async (language: string) => (await list('change-sets', `?language=${language}`)).result;
    const ptSets = await setsIn('pt-BR');
    const ptChanges = await changesOf('?language=pt-BR');
    expect(ptSets.map((set: any) => set.id)).toEqual(ptChanges.map((change: any) => change.changeSetId));
    // the import wrote German among its entry and group: its set is listed whole, once
    const deSets = await setsIn('de');
    expect(deSets.map((set: any) => set.id)).toContain(importSetId);
    expect(deSets).toHaveLength(new Set((await changesOf('?language=de')).map((change: any) => change.changeSetId)).size);
    expect(await list('change-sets', '?language=fr')).toMatchObject({ total: 0, result: [] });
    expect(await list('change-sets', `?language=pt-BR&userId=${webUser.id}`)).toMatchObject({ total: 1, result: [{ source: 'web' }] });
  });

  it('lists what came after a version oldest first, a catch-up feed on both lists', async () => {
    const newest = (await list('change-sets')).result;
    const since = newest[3].version;
    const feed = await list('change-sets', `?afterVersion=${since}`);
    expect(feed.total).toBe(3);
    expect(feed.result.map((set: any) => set.id)).toEqual(newest.slice(0, 3).map((set: any) => set.id).reverse());
    const changes = await list('changes', `?afterVersion=${since}`);
    const versions = changes.result.map((change: any) => change.version);
    expect(versions[0]).toBe(since + 1);
    expect(versions).toEqual([...versions].sort((a: number, b: number) => a - b));
    // ties (a set's several changes, numbered) by change id, ascending in the feed and descending in the list (a bundle's languages share their row's number)
    const ids = changes.result.map((change: any) => change.id);
    const rowOf = (id: string) => BigInt(id.split('.')[0]!);
    for (let i = 1; i < ids.length; i++) if (versions[i] === versions[i - 1]) expect(rowOf(ids[i]) >= rowOf(ids[i - 1]) && ids[i] !== ids[i - 1]).toBe(true);
    const all = (await list('changes')).result;
    expect(all.some((change: any, i: number) => i > 0 && change.version === all[i - 1].version)).toBe(true);
    for (let i = 1; i < all.length; i++) if (all[i].version === all[i - 1].version) expect(rowOf(all[i].id) <= rowOf(all[i - 1].id) && all[i].id !== all[i - 1].id).toBe(true);
    expect(await list('change-sets', `?afterVersion=${newest[0].version}`)).toMatchObject({ total: 0, result: [] });
    expect((await list('change-sets', '?afterVersion=0')).total).toBe(newest.length);
  });

  it('pages both lists: limit 1–100, default 100, total across pages', async () => {
    const all = (await list('changes')).result;
    const page = await list('changes', '?limit=3&offset=2');
    expect(page).toMatchObject({ limit: 3, offset: 2, total: all.length });
    expect(page.result.map((change: any) => change.id)).toEqual(all.slice(2, 5).map((change: any) => change.id));
    const sets = await list('change-sets', '?limit=2&offset=19');
    expect(sets).toMatchObject({ limit: 2, offset: 19, total: 20 });
    expect(sets.result).toHaveLength(1);
  });

  it('answers 400 for a bad afterVersion, source, target, op or limit', async () => {
    for (const query of ['?afterVersion=-1', '?afterVersion=abc', '?afterVersion=1.5', '?source=robot', '?target=member', '?op=move', '?limit=0', '?limit=101', '?offset=-1']) {
      for (const what of ['changes', 'change-sets']) {
        if (what === 'change-sets' && (query.startsWith('?target') || query.startsWith('?op'))) continue;
        const response = await server.api('GET', `/projects/${projectId}/${what}${query}`, { key: key() });
        expect(response.status, `${what}${query}`).toBe(400);
        expect(response.body.code).toBe('ERR_VALIDATION');
      }
    }
  });

  it("lists an import's translation changes entry by entry (each entry's languages together), as they were recorded", async () => {
    const other = await createProject(server, key(), { name: 'Order app', baseLanguage: 'en', translationLanguages: ['de', 'fr'] });
    const texts = (prefix: string) => ({ menu: { open: `${prefix} open`, save: `${prefix} save`, quit: `${prefix} quit` } });
    const report = await ok('POST', `/projects/${other.id}/import?format=json`, { en: texts('en'), de: texts('de'), fr: texts('fr') });
    const listed = await server.api('GET', `/projects/${other.id}/changes?changeSetId=${report.changeSetId}&target=translation`, { key: key() });
    const entries: string[] = listed.body.result.map((change: any) => change.entryId);
    expect(entries).toHaveLength(6);
    const runs = entries.filter((entry, index) => index === 0 || entries[index - 1] !== entry);
    expect(runs, entries.join(' ')).toHaveLength(3);
  });

  it('is read by any member (a viewer too), not by a stranger, nor without a key; each read is counted', async () => {
    expect((await list('change-sets', '', viewer.apiKey)).total).toBe(20);
    expect((await list('changes', `?entryId=${ids.submit}`, viewer.apiKey)).total).toBe(7);
    for (const what of ['changes', 'change-sets']) {
      const strange = await server.api('GET', `/projects/${projectId}/${what}`, { key: stranger.apiKey });
      expect(strange.status).toBe(404);
      expect(strange.body.code).toBe('ERR_PROJECT_NOT_FOUND');
      const missing = await server.api('GET', `/projects/no-such-project/${what}`, { key: key() });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('ERR_PROJECT_NOT_FOUND');
      expect((await server.api('GET', `/projects/${projectId}/${what}`)).status).toBe(401);
    }
    // another project's history holds none of this one's entry, whatever its id filter says
    const other = await createProject(server, viewer.apiKey, { name: 'Other app' });
    const elsewhere = await server.api('GET', `/projects/${other.id}/changes?entryId=${ids.submit}`, { key: viewer.apiKey });
    expect(elsewhere.body).toMatchObject({ total: 0, result: [] });
    const first = await server.api('GET', `/projects/${projectId}/changes?limit=1`, { key: key() });
    const second = await server.api('GET', `/projects/${projectId}/change-sets?limit=1`, { key: key() });
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(Number(first.headers.get('ratelimit-remaining')) - 1);
  });
});
