/** What the editor reads and writes beyond the spec: entry pages with translations, progress, invitations, If-None-Match. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startServerWithUsers, type TestServer, type TestUser } from '../helpers/server.js';

describe.each(DIALECTS)('editor reads on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    ({ server, owner, stranger } = await startServerWithUsers(dialect));
  });
  afterAll(() => server?.close());

  it("pages a group's entries with their translations in the project's current languages only", async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const first = await createEntry(server, owner.apiKey, group.id, 'cancelButton', 'Cancel');
    const second = await createEntry(server, owner.apiKey, group.id, 'saveButton', 'Save');
    const de = await setTranslation(server, owner.apiKey, first.id, 'de', 'Abbrechen');
    await setTranslation(server, owner.apiKey, first.id, 'pt-BR', 'Cancelar');
    // pt-BR leaves the project: its translation is kept but hidden, as on GET /entries/{id}.
    await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { translationLanguages: ['de'] } });
    const page = await server.api('GET', `/groups/${group.id}/entries?withTranslations=true`, { key: owner.apiKey });
    expect(page.status).toBe(200);
    expect(page.body.result.map((entry: { id: string }) => entry.id)).toEqual([first.id, second.id]);
    expect(page.body.result[0].translations).toEqual([de]);
    expect(page.body.result[1].translations).toEqual([]);
    expect(page.body.result[0].translations).toEqual((await server.api('GET', `/entries/${first.id}`, { key: owner.apiKey })).body.translations);
    const plain = await server.api('GET', `/groups/${group.id}/entries`, { key: owner.apiKey });
    expect(plain.body.result[0]).not.toHaveProperty('translations');
  });

  it('shows a translation saved after a page was read (the kept page is not served stale)', async () => {
    const { group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'titleText', 'Title');
    const path = `/groups/${group.id}/entries?withTranslations=true`;
    expect((await server.api('GET', path, { key: owner.apiKey })).body.result[0].translations).toEqual([]);
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Titel');
    expect((await server.api('GET', path, { key: owner.apiKey })).body.result[0].translations).toMatchObject([{ language: 'de', translation: 'Titel' }]);
  });

  it('counts progress per translation language and follows every write', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entries = [];
    for (const name of ['oneText', 'twoText', 'threeText']) entries.push(await createEntry(server, owner.apiKey, group.id, name));
    const progress = () => server.api('GET', `/projects/${project.id}/progress`, { key: owner.apiKey }).then((r) => r.body);
    expect(await progress()).toEqual({
      entryCount: 3,
      languages: [
        { language: 'de', translated: 0, untranslated: 3, reviewed: 0, outdated: 0 },
        { language: 'pt-BR', translated: 0, untranslated: 3, reviewed: 0, outdated: 0 },
      ],
    });
    await setTranslation(server, owner.apiKey, entries[0]!.id, 'de', 'Eins');
    await setTranslation(server, owner.apiKey, entries[1]!.id, 'de', 'Zwei');
    await server.api('DELETE', `/entries/${entries[2]!.id}`, { key: owner.apiKey });
    expect((await progress()).languages).toEqual([
      { language: 'de', translated: 2, untranslated: 0, reviewed: 0, outdated: 0 },
      { language: 'pt-BR', translated: 0, untranslated: 2, reviewed: 0, outdated: 0 },
    ]);
    expect((await server.api('GET', `/projects/${project.id}/progress`, { key: stranger.apiKey })).status).toBe(404);
  });

  it("lists the caller's pending invitations only, and drops one once accepted or declined", async () => {
    const { project } = await createProjectWithGroup(server, owner.apiKey);
    const invitee = await server.user();
    expect((await server.api('GET', '/invitations', { key: invitee.apiKey })).body).toEqual([]);
    await server.api('POST', `/projects/${project.id}/members`, { key: owner.apiKey, body: { email: invitee.email, role: 'translator' } });
    const listed = await server.api('GET', '/invitations', { key: invitee.apiKey });
    expect(listed.body).toEqual([{ projectId: project.id, projectName: project.name, role: 'translator', invitedAt: expect.any(String) }]);
    expect((await server.api('GET', '/invitations', { key: stranger.apiKey })).body).toEqual([]);
    await server.api('POST', `/projects/${project.id}/members/accept`, { key: invitee.apiKey });
    expect((await server.api('GET', '/invitations', { key: invitee.apiKey })).body).toEqual([]);

    const decliner = await server.user();
    await server.api('POST', `/projects/${project.id}/members`, { key: owner.apiKey, body: { email: decliner.email, role: 'viewer' } });
    expect((await server.api('DELETE', `/projects/${project.id}/members/${decliner.id}`, { key: decliner.apiKey })).status).toBe(204);
    expect((await server.api('GET', '/invitations', { key: decliner.apiKey })).body).toEqual([]);
  });

  it('saves into an empty cell with If-None-Match: * once; a second such save finds the first and gets 412, text unchanged', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const translator = await server.user();
    await addMember(server, project.id, translator.id, 'translator');
    const entry = await createEntry(server, owner.apiKey, group.id, 'greeting', 'Hello');
    const save = (key: string, translation: string) =>
      server.api('PUT', `/entries/${entry.id}/translations`, { key, body: { language: 'de', translation }, headers: { 'if-none-match': '*' } });
    expect((await save(owner.apiKey, 'Hallo')).status).toBe(200);
    const late = await save(translator.apiKey, 'Servus');
    expect(late.status).toBe(412);
    expect(late.body.code).toBe('ERR_PRECONDITION_FAILED');
    expect((await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body.translations[0].translation).toBe('Hallo');
  });

  it('removes a translation with If-Match only while it is the text the remover saw: a newer save survives (412)', async () => {
    const { group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'farewell', 'Bye');
    const seen = await setTranslation(server, owner.apiKey, entry.id, 'de', 'Tschüss');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Auf Wiedersehen');
    const remove = (etag: string) =>
      server.api('DELETE', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de' }, headers: { 'if-match': etag } });
    const stale = await remove(`"${seen.updatedAt}"`);
    expect(stale.status).toBe(412);
    const current = (await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body.translations[0];
    expect(current.translation).toBe('Auf Wiedersehen');
    expect((await remove(`"${current.updatedAt}"`)).status).toBe(204);
    expect((await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body.translations).toEqual([]);
  });
});
