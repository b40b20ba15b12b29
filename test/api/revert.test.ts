/**
 * Revert (CONTRACT "History"): a change set or one change put back as a new change set, with the
 * three-way rule per object (restored / unchanged / conflict, never over a later edit), dry runs,
 * onConflict, deleted entries and group subtrees back under new ids, an import undone and redone,
 * capabilities, and the exports equal to the restored state. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createGroup, createProject, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

describe.each(DIALECTS)('revert on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  const latestSet = async (projectId: string) => {
    const response = await server.api('GET', `/projects/${projectId}/change-sets?limit=1`, { key: owner.apiKey });
    expect(response.status, response.text).toBe(200);
    return response.body.result[0];
  };
  const revertSet = (setId: string, query = '', key = owner.apiKey) => server.api('POST', `/change-sets/${setId}/revert${query}`, { key });
  const exported = async (projectId: string) => {
    const response = await server.api('GET', `/projects/${projectId}/export/json`, { key: owner.apiKey });
    expect(response.status, response.text).toBe(200);
    return { json: JSON.parse(response.text), etag: response.headers.get('etag') };
  };
  const translationOf = async (entryId: string, language: string) => {
    const response = await server.api('GET', `/entries/${entryId}`, { key: owner.apiKey });
    return response.body.translations?.find((t: any) => t.language === language)?.translation;
  };

  it('a translation edit: the dry run says what it would do and writes nothing; the revert puts the text back as a new set; again: unchanged', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'save', 'Save');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Sichern');
    const edit = await latestSet(project.id);
    const before = await exported(project.id);

    const dry = await revertSet(edit.id, '?dryRun=true');
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toEqual({ dryRun: true, changeSet: null, restored: 1, unchanged: 0, conflicts: [], created: [], totals: { conflicts: 0 } });
    expect((await exported(project.id)).etag).toBe(before.etag);

    const done = await revertSet(edit.id);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ dryRun: false, restored: 1, unchanged: 0, conflicts: [], totals: { conflicts: 0 } });
    expect(done.body.changeSet).toMatchObject({ source: 'revert', revertOf: edit.id, version: edit.version + 1, summary: { created: 0, updated: 1, deleted: 0 }, user: { id: owner.id } });
    expect(await translationOf(entry.id, 'de')).toBe('Speichern');
    const after = await exported(project.id);
    expect(after.etag).not.toBe(before.etag);
    expect(after.json.de.main.save).toBe('Speichern');
    expect((await latestSet(project.id)).id).toBe(done.body.changeSet.id);
    // the set now names its revert
    const sets = await server.api('GET', `/projects/${project.id}/change-sets?afterVersion=${edit.version - 1}`, { key: owner.apiKey });
    expect(sets.body.result[0]).toMatchObject({ id: edit.id, revertedBy: done.body.changeSet.id });

    const again = await revertSet(edit.id);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ changeSet: null, restored: 0, unchanged: 1 });

    // a redo: reverting the revert gives the edit back
    const redo = await revertSet(done.body.changeSet.id);
    expect(redo.status, redo.text).toBe(200);
    expect(await translationOf(entry.id, 'de')).toBe('Sichern');
  });

  it('a later edit is a conflict: abort → 409 naming it, nothing written; skip → the rest restored, the conflict listed with who changed it', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const one = await createEntry(server, owner.apiKey, group.id, 'first', 'One');
    const two = await createEntry(server, owner.apiKey, group.id, 'second', 'Two');
    await setTranslation(server, owner.apiKey, one.id, 'de', 'Eins');
    await setTranslation(server, owner.apiKey, two.id, 'de', 'Zwei');
    const imported = await server.api('POST', `/projects/${project.id}/import?format=json&mode=overwrite`, {
      key: owner.apiKey,
      body: { en: { main: { first: 'One', second: 'Two' } }, de: { main: { first: 'EINS', second: 'ZWEI' } } },
    });
    expect(imported.status, imported.text).toBe(200);
    const setId = imported.body.changeSetId;
    expect(setId).toEqual(expect.any(String));
    const translator = await server.user();
    await addMember(server, project.id, translator.id, 'translator');
    await setTranslation(server, translator.apiKey, two.id, 'de', 'Zwo');
    const before = await exported(project.id);

    const aborted = await revertSet(setId);
    expect(aborted.status, aborted.text).toBe(409);
    expect(aborted.body.code).toBe('ERR_CONFLICT');
    expect(aborted.body.details).toEqual([{ path: 'main.second/de', message: expect.stringContaining('changed since') }]);
    expect((await exported(project.id)).etag).toBe(before.etag);

    const dry = await revertSet(setId, '?dryRun=true');
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, changeSet: null, restored: 1, totals: { conflicts: 1 } });

    const skipped = await revertSet(setId, '?onConflict=skip');
    expect(skipped.status, skipped.text).toBe(200);
    expect(skipped.body).toMatchObject({ restored: 1, unchanged: 0, totals: { conflicts: 1 } });
    expect(skipped.body.conflicts).toEqual([
      {
        changeId: expect.any(String),
        target: 'translation',
        key: 'main.second',
        language: 'de',
        expected: { text: 'ZWEI', state: 'translated', outdated: false },
        current: { text: 'Zwo', state: 'translated', outdated: false },
        changedBy: { id: translator.id, firstName: expect.any(String), lastName: expect.any(String) },
        changedAt: expect.any(String),
      },
    ]);
    expect(await translationOf(one.id, 'de')).toBe('Eins');
    expect(await translationOf(two.id, 'de')).toBe('Zwo');
  });

  it('a deleted entry comes back under a new id with its translations; a name taken since is a conflict', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'hello', 'Hello {name}');
    await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { contextInfo: 'a greeting' } });
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Hallo {name}');
    await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', 'Olá {name}');
    const before = await exported(project.id);
    expect((await server.api('DELETE', `/entries/${entry.id}`, { key: owner.apiKey })).status).toBe(204);
    const deletion = await latestSet(project.id);

    const restored = await revertSet(deletion.id);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.created).toEqual([{ target: 'entry', key: 'main.hello', id: expect.any(String) }]);
    const newId = restored.body.created[0].id;
    expect(newId).not.toBe(entry.id);
    const back = await server.api('GET', `/entries/${newId}`, { key: owner.apiKey });
    expect(back.body).toMatchObject({ technicalName: 'hello', baseTerm: 'Hello {name}', contextInfo: 'a greeting', groupId: group.id });
    expect((await exported(project.id)).json).toEqual(before.json);
    // the untranslated list is right: nothing missing for the restored entry
    const untranslated = await server.api('GET', `/projects/${project.id}/entries/untranslated?languageCode=de`, { key: owner.apiKey });
    expect(untranslated.body.result.map((e: any) => e.id)).not.toContain(newId);

    // reverting the delete again while the restore stands: unchanged, not a second copy
    const twice = await revertSet(deletion.id);
    expect(twice.status, twice.text).toBe(200);
    expect(twice.body).toMatchObject({ changeSet: null, restored: 0, unchanged: 1 });

    // deleted again, and the name taken by a new entry: a conflict
    await server.api('DELETE', `/entries/${newId}`, { key: owner.apiKey });
    const secondDeletion = await latestSet(project.id);
    await createEntry(server, owner.apiKey, group.id, 'hello', 'Hi');
    const taken = await revertSet(secondDeletion.id);
    expect(taken.status, taken.text).toBe(409);
    expect(taken.body.details).toEqual([{ path: 'main.hello', message: expect.any(String) }]);
  });

  it('a deleted group comes back with its whole subtree; the exports equal those before the delete', async () => {
    const project = await createProject(server, owner.apiKey);
    const top = await createGroup(server, owner.apiKey, project.id, 'settings');
    const sub = await createGroup(server, owner.apiKey, project.id, 'privacy', top.id);
    const deeper = await createGroup(server, owner.apiKey, project.id, 'cookies', sub.id);
    for (const [group, name, de] of [[top, 'title', 'Einstellungen'], [sub, 'title', 'Datenschutz'], [deeper, 'accept', 'Annehmen'], [deeper, 'decline', null]] as const) {
      const entry = await createEntry(server, owner.apiKey, group.id, name, `Text ${name}`);
      if (de) await setTranslation(server, owner.apiKey, entry.id, 'de', de);
    }
    const before = await exported(project.id);
    expect((await server.api('DELETE', `/groups/${top.id}`, { key: owner.apiKey })).status).toBe(204);
    const deletion = await latestSet(project.id);
    expect(deletion.summary).toEqual({ created: 0, updated: 0, deleted: 1 });

    const dry = await revertSet(deletion.id, '?dryRun=true');
    expect(dry.body.created).toEqual([{ target: 'group', key: 'settings', id: null }]);
    const restored = await revertSet(deletion.id);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.created).toEqual([{ target: 'group', key: 'settings', id: expect.any(String) }]);
    expect(restored.body.changeSet.summary).toEqual({ created: 3 + 4 + 3, updated: 0, deleted: 0 });
    expect((await exported(project.id)).json).toEqual(before.json);

    // undoing the restore (a redo of the delete) removes the subtree again: nothing was added to it
    const undo = await revertSet(restored.body.changeSet.id);
    expect(undo.status, undo.text).toBe(200);
    const groups = await server.api('GET', `/projects/${project.id}/groups`, { key: owner.apiKey });
    expect(groups.body.result).toEqual([]);
  });

  it('undoing a create whose object got something since is a conflict; an import undone removes what it created, and a redo brings it back', async () => {
    const project = await createProject(server, owner.apiKey);
    const files = { en: { nav: { home: 'Home', back: 'Back' } }, de: { nav: { home: 'Start', back: 'Zurück' } } };
    const imported = await server.api('POST', `/projects/${project.id}/import?format=json`, { key: owner.apiKey, body: files });
    expect(imported.status, imported.text).toBe(200);
    const afterImport = await exported(project.id);
    // someone adds a pt-BR text to nav.home: that entry (and its group) stay, the rest goes
    const home = (await server.api('GET', `/projects/${project.id}/entries/untranslated?languageCode=pt-BR`, { key: owner.apiKey })).body.result.find((e: any) => e.technicalName === 'home');
    await setTranslation(server, owner.apiKey, home.id, 'pt-BR', 'Início');

    const undo = await revertSet(imported.body.changeSetId, '?onConflict=skip');
    expect(undo.status, undo.text).toBe(200);
    expect(undo.body.conflicts.map((c: any) => [c.target, c.key, c.language])).toEqual(
      expect.arrayContaining([
        ['entry', 'nav.home', null],
        ['group', 'nav', null],
      ]),
    );
    const left = (await exported(project.id)).json;
    expect(left.en).toEqual({ nav: { home: 'Home' } });
    // the import's own German text went (unchanged since); the pt-BR one added later stayed
    expect(await translationOf(home.id, 'de')).toBeUndefined();
    expect(await translationOf(home.id, 'pt-BR')).toBe('Início');

    // the redo brings back what the undo removed
    const redo = await revertSet(undo.body.changeSet.id);
    expect(redo.status, redo.text).toBe(200);
    const again = (await exported(project.id)).json;
    expect(again.en).toEqual(afterImport.json.en);
    expect(again.de).toEqual(afterImport.json.de);
  });

  it('one change reverted alone; its revert names the set', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'title', 'Title');
    await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { baseTerm: 'Heading', technicalName: 'heading' } });
    const rename = await latestSet(project.id);
    const changes = await server.api('GET', `/projects/${project.id}/changes?changeSetId=${rename.id}`, { key: owner.apiKey });
    const change = changes.body.result[0];
    const reverted = await server.api('POST', `/changes/${change.id}/revert`, { key: owner.apiKey });
    expect(reverted.status, reverted.text).toBe(200);
    expect(reverted.body.changeSet.revertOf).toBe(rename.id);
    const back = await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey });
    expect(back.body).toMatchObject({ technicalName: 'title', baseTerm: 'Title' });
  });

  it('a project PATCH reverted: name and languages back', async () => {
    const project = await createProject(server, owner.apiKey);
    const patched = await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { name: 'Renamed', translationLanguages: ['de', 'fr'] } });
    expect(patched.status, patched.text).toBe(200);
    const reverted = await revertSet((await latestSet(project.id)).id);
    expect(reverted.status, reverted.text).toBe(200);
    const now = await server.api('GET', `/projects/${project.id}`, { key: owner.apiKey });
    expect(now.body).toMatchObject({ name: 'Test app', translationLanguages: ['de', 'pt-BR'] });
  });

  it('capabilities: a translator cannot revert entry changes (403, a dry run too), a stranger gets 404, an unknown id 404', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    await createEntry(server, owner.apiKey, group.id, 'entry', 'Entry');
    const creation = await latestSet(project.id);
    const translator = await server.user();
    await addMember(server, project.id, translator.id, 'translator');
    for (const query of ['', '?dryRun=true']) {
      const refused = await revertSet(creation.id, query, translator.apiKey);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.message).toContain('canEditEntries');
    }
    const stranger = await server.user();
    const hidden = await revertSet(creation.id, '', stranger.apiKey);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('ERR_NOT_FOUND');
    for (const path of ['/change-sets/nope/revert', '/changes/nope/revert', '/changes/99999999/revert']) {
      const missing = await server.api('POST', path, { key: owner.apiKey });
      expect(missing.status, path).toBe(404);
      expect(missing.body.code).toBe('ERR_NOT_FOUND');
    }
    const bad = await revertSet(creation.id, '?onConflict=overwrite');
    expect(bad.status).toBe(400);
  });
});
