/**
 * A write that changes nothing changes nothing (CONTRACT "History": it records nothing; the content
 * version, so every export's ETag and the kept reads, stays as it was): the same translation saved again
 * (its updatedAt, ETag and translator kept), a translation removed where there is none, an entry, group
 * or project PATCH that gives its current values. A real change right after moves the version, so the
 * test sees it move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

describe.each(DIALECTS)('writes that change nothing on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  /** The project's content version, as every client sees it: the export's ETag. */
  const version = async (projectId: string) => {
    const response = await server.api('GET', `/projects/${projectId}/export/json`, { key: owner.apiKey });
    expect(response.status).toBe(200);
    return response.headers.get('etag');
  };

  it('the same translation again: 200 with the stored one (same updatedAt, ETag and translator), the version unmoved', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'save', 'Save');
    const translator = await server.user();
    await addMember(server, project.id, translator.id, 'translator');
    const first = await server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de', translation: 'Speichern' } });
    const before = await version(project.id);

    const again = await server.api('PUT', `/entries/${entry.id}/translations`, { key: translator.apiKey, body: { language: 'de', translation: 'Speichern' } });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.body.translatorId).toBe(owner.id);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await version(project.id)).toBe(before);

    // If-Match with the unchanged ETag still matches: nothing moved under the editor
    const matched = await server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de', translation: 'Sichern' }, headers: { 'if-match': first.headers.get('etag')! } });
    expect(matched.status, matched.text).toBe(200);
    expect(await version(project.id)).not.toBe(before);
  });

  it('removing a translation that is not there: 204, the version unmoved; removing one that is moves it', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'open', 'Open');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Öffnen');
    const before = await version(project.id);
    const absent = await server.api('DELETE', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'pt-BR' } });
    expect(absent.status, absent.text).toBe(204);
    expect(await version(project.id)).toBe(before);
    const present = await server.api('DELETE', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de' } });
    expect(present.status, present.text).toBe(204);
    expect(await version(project.id)).not.toBe(before);
  });

  it('an entry PATCH giving its current values: 200 with the entry as it was, the version unmoved', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'close', 'Close');
    const before = await version(project.id);
    const same = await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { technicalName: 'close', baseTerm: 'Close', contextInfo: entry.contextInfo } });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toEqual(entry);
    expect(await version(project.id)).toBe(before);
    const changed = await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { baseTerm: 'Close it' } });
    expect(changed.status, changed.text).toBe(200);
    expect(await version(project.id)).not.toBe(before);
  });

  it('a group PATCH giving its current values: 200 with the group as it was, the version unmoved', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey, 'menu');
    const before = await version(project.id);
    const same = await server.api('PATCH', `/groups/${group.id}`, { key: owner.apiKey, body: { technicalName: 'menu', displayName: group.displayName, parentId: null } });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toEqual(group);
    expect(await version(project.id)).toBe(before);
    const renamed = await server.api('PATCH', `/groups/${group.id}`, { key: owner.apiKey, body: { displayName: 'Main menu' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await version(project.id)).not.toBe(before);
  });

  it('a project PATCH giving its current values: 200, the version unmoved; the languages in another order are a change', async () => {
    const { project } = await createProjectWithGroup(server, owner.apiKey);
    const before = await version(project.id);
    const same = await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { name: project.name, baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'], keyStyle: 'camelCase' } });
    expect(same.status, same.text).toBe(200);
    expect(await version(project.id)).toBe(before);
    const reordered = await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { translationLanguages: ['pt-BR', 'de'] } });
    expect(reordered.status, reordered.text).toBe(200);
    expect(await version(project.id)).not.toBe(before);
  });
});
