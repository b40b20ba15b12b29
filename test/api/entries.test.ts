import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createGroup, createProject, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServerWithUsers, type TestServer, type TestUser } from '../helpers/server.js';

const SUMMARY_KEYS = ['baseTerm', 'contextInfo', 'createdAt', 'groupId', 'id', 'technicalName'];
const UNTRANSLATED_KEYS = ['baseTerm', 'contextInfo', 'groupId', 'id', 'technicalName'];
const TRANSLATION_KEYS = ['createdAt', 'id', 'language', 'outdated', 'reviewedAt', 'reviewedBy', 'reviewedText', 'state', 'translation', 'translatorId', 'updatedAt'];

const names = (page: { result: { technicalName: string }[] }) => page.result.map((e) => e.technicalName);
const notFoundBody = { statusCode: 404, code: 'ERR_NOT_FOUND', message: expect.any(String) };

describe.each(DIALECTS)('entries on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    ({ server, owner, stranger } = await startServerWithUsers(dialect));
  });
  afterAll(() => server?.close());

  const list = (groupId: string, query = '', key = owner.apiKey) => server.api('GET', `/groups/${groupId}/entries${query}`, { key });
  const search = async (groupId: string, text: string) => {
    const response = await list(groupId, `?search=${encodeURIComponent(text)}`);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const untranslated = (projectId: string, query: string, key = owner.apiKey) =>
    server.api('GET', `/projects/${projectId}/entries/untranslated${query}`, { key });
  const translationRows = (entryId: string) =>
    server.store.db.selectFrom('translations').select(['language', 'translation']).where('entry_id', '=', entryId).orderBy('language').execute();

  describe('create', () => {
    it('answers exactly the Entry summary of the new entry', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const response = await server.api('POST', `/groups/${group.id}/entries`, {
        key: owner.apiKey,
        body: { technicalName: 'loginButton', baseTerm: 'Log in', contextInfo: 'On the start page' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: expect.any(String),
        groupId: group.id,
        technicalName: 'loginButton',
        baseTerm: 'Log in',
        contextInfo: 'On the start page',
        createdAt: expect.any(String),
      });
      expect(new Date(response.body.createdAt).toISOString()).toBe(response.body.createdAt);
      const stored = await server.api('GET', `/entries/${response.body.id}`, { key: owner.apiKey });
      expect(stored.body).toEqual({ ...response.body, translations: [] });
    });

    it.each([
      ['omitted', {}],
      ['null', { contextInfo: null }],
    ])('answers contextInfo null when it is %s', async (_label, extra) => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const response = await server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body: { technicalName: 'title', baseTerm: 'Title', ...extra } });
      expect(response.status).toBe(200);
      expect(response.body.contextInfo).toBeNull();
      expect(Object.keys(response.body).sort()).toEqual(SUMMARY_KEYS);
    });

    it.each([
      ['technicalName of 3 characters', { technicalName: 'abc', baseTerm: 'x' }, '/body/technicalName'],
      ['technicalName starting upper-case', { technicalName: 'LoginButton', baseTerm: 'x' }, '/body/technicalName'],
      ['technicalName starting with a digit', { technicalName: '1login', baseTerm: 'x' }, '/body/technicalName'],
      ['technicalName with a hyphen', { technicalName: 'log-in', baseTerm: 'x' }, '/body/technicalName'],
      ['technicalName with an underscore', { technicalName: 'log_in', baseTerm: 'x' }, '/body/technicalName'],
      ['technicalName with a dot', { technicalName: 'auth.login', baseTerm: 'x' }, '/body/technicalName'],
      ['technicalName with a space', { technicalName: 'log in', baseTerm: 'x' }, '/body/technicalName'],
      ['technicalName with a non-ASCII letter', { technicalName: 'schließen', baseTerm: 'x' }, '/body/technicalName'],
      ['technicalName of 101 characters', { technicalName: 'a'.repeat(101), baseTerm: 'x' }, '/body/technicalName'],
      ['technicalName missing', { baseTerm: 'x' }, '/body/technicalName'],
      ['baseTerm missing', { technicalName: 'title' }, '/body/baseTerm'],
      ['baseTerm empty', { technicalName: 'title', baseTerm: '' }, '/body/baseTerm'],
      ['baseTerm of 10,001 characters', { technicalName: 'title', baseTerm: 'x'.repeat(10_001) }, '/body/baseTerm'],
      ['contextInfo of 2,001 characters', { technicalName: 'title', baseTerm: 'x', contextInfo: 'c'.repeat(2_001) }, '/body/contextInfo'],
      ['inline translations', { technicalName: 'title', baseTerm: 'x', translations: [{ language: 'de', translation: 'y' }] }, '/body/translations'],
      ['a groupId field', { technicalName: 'title', baseTerm: 'x', groupId: 'elsewhere' }, '/body/groupId'],
      ['a number as technicalName', { technicalName: 12345, baseTerm: 'x' }, '/body/technicalName'],
      ['a number as baseTerm', { technicalName: 'title', baseTerm: 42 }, '/body/baseTerm'],
      ['a boolean as contextInfo', { technicalName: 'title', baseTerm: 'x', contextInfo: true }, '/body/contextInfo'],
      ['an array as baseTerm', { technicalName: 'title', baseTerm: ['x'] }, '/body/baseTerm'],
    ])('refuses a create with %s (400 at the field) and stores nothing', async (_label, body, path) => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const response = await server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, code: 'ERR_VALIDATION', message: expect.any(String) });
      expect(response.body.details.map((d: any) => d.path)).toContain(path);
      expect((await list(group.id)).body.total).toBe(0);
    });

    it('refuses a body that is not a JSON object with 400', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      for (const body of [['title', 'x'], 'title', null]) {
        const response = await server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body.code).toBe('ERR_VALIDATION');
      }
    });

    it('accepts the boundary lengths: 4 and 100-character names, 10,000-character baseTerm, 2,000-character contextInfo', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      for (const body of [
        { technicalName: 'abcd', baseTerm: 'x' },
        { technicalName: 'b'.repeat(100), baseTerm: 'y'.repeat(10_000), contextInfo: 'c'.repeat(2_000) },
        { technicalName: 'emptyContext', baseTerm: 'z', contextInfo: '' },
      ]) {
        const response = await server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body });
        expect(response.status, response.text.slice(0, 300)).toBe(200);
        expect(response.body).toMatchObject(body);
      }
    });

    it('counts text lengths in code points, not UTF-16 units', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const fits = await server.api('POST', `/groups/${group.id}/entries`, {
        key: owner.apiKey,
        body: { technicalName: 'emojiTerm', baseTerm: '😀'.repeat(10_000), contextInfo: '😀'.repeat(2_000) },
      });
      expect(fits.status).toBe(200);
      expect(fits.body.baseTerm).toBe('😀'.repeat(10_000));
      const tooLong = await server.api('POST', `/groups/${group.id}/entries`, {
        key: owner.apiKey,
        body: { technicalName: 'emojiTermTwo', baseTerm: '😀'.repeat(10_001) },
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.details.map((d: any) => d.path)).toContain('/body/baseTerm');
    });

    it('refuses a technicalName already used in the group with 409 ERR_CONFLICT; another group may use it', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const first = await createEntry(server, owner.apiKey, group.id, 'title', 'First');
      const duplicate = await server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body: { technicalName: 'title', baseTerm: 'Second' } });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toEqual({ statusCode: 409, code: 'ERR_CONFLICT', message: expect.any(String) });
      const listed = await list(group.id);
      expect(listed.body.result).toEqual([first]);

      const other = await createGroup(server, owner.apiKey, project.id, 'other');
      const nested = await createGroup(server, owner.apiKey, project.id, 'nested', group.id);
      const elsewhere = await createProject(server, owner.apiKey);
      const elsewhereGroup = await createGroup(server, owner.apiKey, elsewhere.id, 'main');
      for (const target of [other, nested, elsewhereGroup]) {
        const response = await server.api('POST', `/groups/${target.id}/entries`, { key: owner.apiKey, body: { technicalName: 'title', baseTerm: 'Elsewhere' } });
        expect(response.status, response.text).toBe(200);
        expect(response.body.groupId).toBe(target.id);
      }
    });

    it('treats technical names case-sensitively: title and tiTle are different entries', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      await createEntry(server, owner.apiKey, group.id, 'title');
      const response = await server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body: { technicalName: 'tiTle', baseTerm: 'x' } });
      expect(response.status).toBe(200);
    });

    it('refuses an entry named like a sub-group of its group with 409 ERR_CONFLICT (one name space per parent)', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const sub = await createGroup(server, owner.apiKey, project.id, 'settings', group.id);
      const clash = await server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body: { technicalName: 'settings', baseTerm: 'Settings' } });
      expect(clash.status).toBe(409);
      expect(clash.body.code).toBe('ERR_CONFLICT');
      expect((await list(group.id)).body.total).toBe(0);

      // Only direct sub-groups share the name space: the sub-group itself, a grandchild or a top-level group do not.
      await createGroup(server, owner.apiKey, project.id, 'deeper', sub.id);
      await createGroup(server, owner.apiKey, project.id, 'topLevel');
      for (const technicalName of ['deeper', 'topLevel', 'main']) {
        const response = await server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body: { technicalName, baseTerm: 'x' } });
        expect(response.status, technicalName).toBe(200);
      }
      const inSub = await server.api('POST', `/groups/${sub.id}/entries`, { key: owner.apiKey, body: { technicalName: 'settings', baseTerm: 'x' } });
      expect(inSub.status).toBe(200);
    });

    it('refuses a sub-group named like an entry of its parent with 409 ERR_CONFLICT (the other direction)', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      await createEntry(server, owner.apiKey, group.id, 'profile');
      const response = await server.api('POST', `/projects/${project.id}/groups`, {
        key: owner.apiKey,
        body: { technicalName: 'profile', displayName: 'Profile', parentId: group.id },
      });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('ERR_CONFLICT');
    });

    it('answers 404 ERR_NOT_FOUND for an unknown group and for a stranger\'s group, and creates nothing', async () => {
      const unknown = await server.api('POST', '/groups/doesnotexist/entries', { key: owner.apiKey, body: { technicalName: 'title', baseTerm: 'x' } });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFoundBody);

      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const foreign = await server.api('POST', `/groups/${group.id}/entries`, { key: stranger.apiKey, body: { technicalName: 'title', baseTerm: 'x' } });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(notFoundBody);
      expect((await list(group.id)).body.total).toBe(0);
    });
  });

  describe('list', () => {
    it('lists only the group\'s entries, ordered by technical name, as Entry summaries', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      // Mixed case and digits: the order is by code point (digits, then upper case, then lower case).
      const created = ['itemb', 'itemA', 'item2', 'itemZz', 'itema'];
      for (const name of created) await createEntry(server, owner.apiKey, group.id, name);
      const sub = await createGroup(server, owner.apiKey, project.id, 'sub', group.id);
      await createEntry(server, owner.apiKey, sub.id, 'nestedEntry');
      const sibling = await createGroup(server, owner.apiKey, project.id, 'sibling');
      await createEntry(server, owner.apiKey, sibling.id, 'siblingEntry');

      const response = await list(group.id);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ limit: 100, offset: 0, total: 5 });
      expect(names(response.body)).toEqual(['item2', 'itemA', 'itemZz', 'itema', 'itemb']);
      for (const item of response.body.result) {
        expect(Object.keys(item).sort()).toEqual(SUMMARY_KEYS);
        expect(item.groupId).toBe(group.id);
      }
    });

    it('pages with limit and offset; total counts every entry of the group', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      for (const name of ['echo', 'alpha', 'delta', 'charlie', 'bravo']) await createEntry(server, owner.apiKey, group.id, name);
      const pages = [
        ['?limit=2', { limit: 2, offset: 0, total: 5 }, ['alpha', 'bravo']],
        ['?limit=2&offset=2', { limit: 2, offset: 2, total: 5 }, ['charlie', 'delta']],
        ['?limit=2&offset=4', { limit: 2, offset: 4, total: 5 }, ['echo']],
        ['?offset=3', { limit: 100, offset: 3, total: 5 }, ['delta', 'echo']],
        ['?offset=5', { limit: 100, offset: 5, total: 5 }, []],
        ['?limit=100&offset=50', { limit: 100, offset: 50, total: 5 }, []],
      ] as const;
      for (const [query, page, expected] of pages) {
        const response = await list(group.id, query);
        expect(response.status, query).toBe(200);
        expect(response.body, query).toMatchObject(page);
        expect(names(response.body), query).toEqual(expected);
      }
    });

    it.each([['limit=0'], ['limit=101'], ['limit=-1'], ['limit=abc'], ['limit=1.5'], ['offset=-1'], ['offset=x'], ['offset=1.5']])(
      'refuses the page query %s with 400',
      async (query) => {
        const { group } = await createProjectWithGroup(server, owner.apiKey);
        const response = await list(group.id, `?${query}`);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ statusCode: 400, code: 'ERR_VALIDATION' });
        expect(response.body.details[0].path).toMatch(/^\/querystring\/(limit|offset)$/);
      },
    );

    it('searches technicalName or baseTerm as a case-insensitive substring, and pages the matches', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      await createEntry(server, owner.apiKey, group.id, 'loginButton', 'Sign in');
      await createEntry(server, owner.apiKey, group.id, 'logoutButton', 'Sign out');
      await createEntry(server, owner.apiKey, group.id, 'welcomeTitle', 'Welcome back to the LOGIN page');
      await createEntry(server, owner.apiKey, group.id, 'farewell', 'Goodbye');

      expect(names(await search(group.id, 'LOGIN'))).toEqual(['loginButton', 'welcomeTitle']);
      expect(names(await search(group.id, 'login'))).toEqual(['loginButton', 'welcomeTitle']);
      expect(names(await search(group.id, 'SIGN'))).toEqual(['loginButton', 'logoutButton']);
      expect(names(await search(group.id, 'button'))).toEqual(['loginButton', 'logoutButton']);
      expect(names(await search(group.id, 'gOoDbYe'))).toEqual(['farewell']);
      expect(await search(group.id, 'nowhere')).toEqual({ limit: 100, offset: 0, total: 0, result: [] });

      const page = await list(group.id, '?search=sign&limit=1&offset=1');
      expect(page.body).toMatchObject({ limit: 1, offset: 1, total: 2 });
      expect(names(page.body)).toEqual(['logoutButton']);
    });

    it('folds case beyond ASCII: ÄPFEL finds äpfel, école finds ÉCOLE, ПРИВЕТ finds привет', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      await createEntry(server, owner.apiKey, group.id, 'apples', 'Frische äpfel');
      await createEntry(server, owner.apiKey, group.id, 'school', 'ÉCOLE PRIMAIRE');
      await createEntry(server, owner.apiKey, group.id, 'greeting', 'привет, мир');
      await createEntry(server, owner.apiKey, group.id, 'plainApfel', 'apfel');

      expect(names(await search(group.id, 'ÄPFEL'))).toEqual(['apples']);
      expect(names(await search(group.id, 'Äpfel'))).toEqual(['apples']);
      expect(names(await search(group.id, 'école'))).toEqual(['school']);
      expect(names(await search(group.id, 'ПРИВЕТ'))).toEqual(['greeting']);
    });

    it('treats %, _ and \\ in the search text literally', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      await createEntry(server, owner.apiKey, group.id, 'discount', '50% off');
      await createEntry(server, owner.apiKey, group.id, 'fiftyOff', '50 off');
      await createEntry(server, owner.apiKey, group.id, 'snakeUnderscore', 'snake_case');
      await createEntry(server, owner.apiKey, group.id, 'snakeLookalike', 'snakeXcase');
      await createEntry(server, owner.apiKey, group.id, 'windowsPath', 'C:\\temp');
      await createEntry(server, owner.apiKey, group.id, 'unixPath', 'C:/temp');

      expect(names(await search(group.id, '%'))).toEqual(['discount']);
      expect(names(await search(group.id, '50%'))).toEqual(['discount']);
      expect(names(await search(group.id, '_'))).toEqual(['snakeUnderscore']);
      expect(names(await search(group.id, 'e_c'))).toEqual(['snakeUnderscore']);
      expect(names(await search(group.id, '\\'))).toEqual(['windowsPath']);
      expect(names(await search(group.id, ':\\t'))).toEqual(['windowsPath']);
      expect(names(await search(group.id, '\\%'))).toEqual([]);
      expect(names(await search(group.id, '%%'))).toEqual([]);
    });

    it('accepts a search of 10,000 characters (even ones LIKE must escape) and refuses 10,001', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      await createEntry(server, owner.apiKey, group.id, 'longTerm', 'a'.repeat(10_000));
      expect(names(await search(group.id, 'A'.repeat(10_000)))).toEqual(['longTerm']);
      expect(names(await search(group.id, '_'.repeat(10_000)))).toEqual([]);
      const tooLong = await list(group.id, `?search=${'a'.repeat(10_001)}`);
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.details.map((d: any) => d.path)).toContain('/querystring/search');
    });

    it('lists everything for an empty search', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      for (const name of ['first', 'second', 'third']) await createEntry(server, owner.apiKey, group.id, name);
      const response = await list(group.id, '?search=');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total: 3 });
      expect(names(response.body)).toEqual(['first', 'second', 'third']);
    });

    it('answers 404 ERR_NOT_FOUND for an unknown group and for a stranger\'s group', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      await createEntry(server, owner.apiKey, group.id, 'secret');
      for (const [groupId, key] of [['doesnotexist', owner.apiKey], [group.id, stranger.apiKey]] as const) {
        const response = await list(groupId, '', key);
        expect(response.status).toBe(404);
        expect(response.body).toEqual(notFoundBody);
      }
    });
  });

  describe('get', () => {
    it('gets an entry with its translations', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'saveButton', 'Save');
      const pt = await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', 'Salvar');
      const de = await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');

      const response = await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...entry, translations: expect.any(Array) });
      const byLanguage = Object.fromEntries(response.body.translations.map((t: any) => [t.language, t]));
      // in language order, whatever the order they were saved in (pt-BR first here)
      expect(response.body.translations.map((t: any) => t.language)).toEqual(['de', 'pt-BR']);
      expect(byLanguage.de).toEqual(de);
      expect(byLanguage['pt-BR']).toEqual(pt);
      for (const translation of response.body.translations) expect(Object.keys(translation).sort()).toEqual(TRANSLATION_KEYS);
    });

    it('hides translations of a language removed from the project, and shows them again when it is re-added', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'cancelButton', 'Cancel');
      const de = await setTranslation(server, owner.apiKey, entry.id, 'de', 'Abbrechen');
      const pt = await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', 'Cancelar');
      const languages = (translationLanguages: string[]) =>
        server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { translationLanguages } });

      expect((await languages(['pt-BR', 'fr'])).status).toBe(200);
      const hidden = await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey });
      expect(hidden.body.translations).toEqual([pt]);
      expect(await translationRows(entry.id)).toEqual([
        { language: 'de', translation: 'Abbrechen' },
        { language: 'pt-BR', translation: 'Cancelar' },
      ]);

      expect((await languages([])).status).toBe(200);
      expect((await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body.translations).toEqual([]);

      expect((await languages(['de', 'pt-BR'])).status).toBe(200);
      const back = await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey });
      expect(back.body.translations).toHaveLength(2);
      expect(back.body.translations).toEqual(expect.arrayContaining([de, pt]));
    });

    it('answers 404 ERR_NOT_FOUND for an unknown entry', async () => {
      const response = await server.api('GET', '/entries/doesnotexist', { key: owner.apiKey });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFoundBody);
    });
  });

  describe('patch', () => {
    it.each([
      ['technicalName', { technicalName: 'renamedEntry' }],
      ['baseTerm', { baseTerm: 'A new base term' }],
      ['contextInfo', { contextInfo: 'A new hint' }],
    ])('changes %s alone and keeps the rest', async (_field, change) => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await postEntry(group.id, { technicalName: 'original', baseTerm: 'Original', contextInfo: 'Old hint' });
      const response = await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: change });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...entry, ...change });
      const stored = await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey });
      expect(stored.body).toEqual({ ...entry, ...change, translations: [] });
    });

    it('leaves technicalName and baseTerm unchanged when they are null; contextInfo null clears it', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await postEntry(group.id, { technicalName: 'original', baseTerm: 'Original', contextInfo: 'Old hint' });
      const response = await server.api('PATCH', `/entries/${entry.id}`, {
        key: owner.apiKey,
        body: { technicalName: null, baseTerm: null, contextInfo: null },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...entry, contextInfo: null });
      expect((await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body.contextInfo).toBeNull();

      const renamed = await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { technicalName: 'renamed', baseTerm: null } });
      expect(renamed.body).toEqual({ ...entry, technicalName: 'renamed', contextInfo: null });
    });

    it.each([
      ['an empty body', {}],
      ['only nulls of required fields', { technicalName: null, baseTerm: null }],
    ])('refuses a patch with %s: 400 nothing to update', async (_label, body) => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'original');
      const response = await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, code: 'ERR_VALIDATION', message: expect.stringMatching(/nothing to update/) });
    });

    it.each([
      ['a groupId (an entry cannot move)', { groupId: 'GROUP' }, '/body/groupId'],
      ['translations', { translations: [] }, '/body/translations'],
      ['a 3-character technicalName', { technicalName: 'abc' }, '/body/technicalName'],
      ['a technicalName outside the pattern', { technicalName: 'Not_camel' }, '/body/technicalName'],
      ['an empty baseTerm', { baseTerm: '' }, '/body/baseTerm'],
      ['a baseTerm of 10,001 characters', { baseTerm: 'x'.repeat(10_001) }, '/body/baseTerm'],
      ['a contextInfo of 2,001 characters', { contextInfo: 'c'.repeat(2_001) }, '/body/contextInfo'],
      ['a number as baseTerm', { baseTerm: 7 }, '/body/baseTerm'],
    ])('refuses a patch with %s (400 at the field) and leaves the entry as it was', async (_label, body, path) => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const other = await createGroup(server, owner.apiKey, project.id, 'other');
      const entry = await createEntry(server, owner.apiKey, group.id, 'original');
      const sent = 'groupId' in body ? { ...body, groupId: other.id } : body;
      const response = await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: sent });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('ERR_VALIDATION');
      expect(response.body.details.map((d: any) => d.path)).toContain(path);
      expect((await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body).toEqual({ ...entry, translations: [] });
      expect((await list(other.id)).body.total).toBe(0);
    });

    it('refuses a rename to a name taken by an entry or a sub-group of the group with 409 ERR_CONFLICT', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      await createEntry(server, owner.apiKey, group.id, 'taken');
      await createGroup(server, owner.apiKey, project.id, 'subGroup', group.id);
      const entry = await createEntry(server, owner.apiKey, group.id, 'mine');
      for (const technicalName of ['taken', 'subGroup']) {
        const response = await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { technicalName, baseTerm: 'Changed' } });
        expect(response.status, technicalName).toBe(409);
        expect(response.body).toEqual({ statusCode: 409, code: 'ERR_CONFLICT', message: expect.any(String) });
      }
      expect((await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body).toEqual({ ...entry, translations: [] });
    });

    it('allows a rename to its own name and to a name used in another group', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const other = await createGroup(server, owner.apiKey, project.id, 'other');
      await createEntry(server, owner.apiKey, other.id, 'elsewhere');
      const entry = await createEntry(server, owner.apiKey, group.id, 'mine');
      const same = await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { technicalName: 'mine', baseTerm: 'Changed' } });
      expect(same.status).toBe(200);
      expect(same.body).toEqual({ ...entry, baseTerm: 'Changed' });
      const moved = await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { technicalName: 'elsewhere' } });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ technicalName: 'elsewhere', groupId: group.id });
    });

    it('makes a changed baseTerm searchable and the old one not', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'motto', 'Before');
      await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { baseTerm: 'ÜBER ALLES' } });
      expect(names(await search(group.id, 'über'))).toEqual(['motto']);
      expect(names(await search(group.id, 'before'))).toEqual([]);
    });

    it('answers 404 ERR_NOT_FOUND for an unknown entry', async () => {
      const response = await server.api('PATCH', '/entries/doesnotexist', { key: owner.apiKey, body: { baseTerm: 'x' } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFoundBody);
    });
  });

  describe('delete', () => {
    it('deletes an entry with its translations: 204 with an empty body, then 404', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'doomed');
      const kept = await createEntry(server, owner.apiKey, group.id, 'kept');
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Verloren');
      await setTranslation(server, owner.apiKey, entry.id, 'pt-BR', 'Perdido');
      await setTranslation(server, owner.apiKey, kept.id, 'de', 'Behalten');

      const deleted = await server.api('DELETE', `/entries/${entry.id}`, { key: owner.apiKey });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect(await translationRows(entry.id)).toEqual([]);
      expect(await translationRows(kept.id)).toEqual([{ language: 'de', translation: 'Behalten' }]);
      expect((await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body).toEqual(notFoundBody);
      expect(names((await list(group.id)).body)).toEqual(['kept']);

      const again = await server.api('DELETE', `/entries/${entry.id}`, { key: owner.apiKey });
      expect(again.status).toBe(404);
      expect(again.body).toEqual(notFoundBody);
    });

    it('frees the technical name of a deleted entry', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'reused');
      await server.api('DELETE', `/entries/${entry.id}`, { key: owner.apiKey });
      const again = await server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body: { technicalName: 'reused', baseTerm: 'x' } });
      expect(again.status).toBe(200);
      expect(again.body.id).not.toBe(entry.id);
    });
  });

  describe('untranslated', () => {
    it('lists the entries of the whole project that lack a translation in languageCode, as Untranslated entries', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const sub = await createGroup(server, owner.apiKey, project.id, 'sub', group.id);
      const sibling = await createGroup(server, owner.apiKey, project.id, 'sibling');
      const open = await postEntry(group.id, { technicalName: 'openOne', baseTerm: 'Open', contextInfo: 'hint' });
      const done = await createEntry(server, owner.apiKey, group.id, 'doneOne');
      const nested = await createEntry(server, owner.apiKey, sub.id, 'nestedOne');
      const otherLanguageOnly = await createEntry(server, owner.apiKey, sibling.id, 'portugueseOnly');
      await setTranslation(server, owner.apiKey, done.id, 'de', 'Fertig');
      await setTranslation(server, owner.apiKey, otherLanguageOnly.id, 'pt-BR', 'Só português');
      const { group: foreignGroup } = await createProjectWithGroup(server, owner.apiKey);
      await createEntry(server, owner.apiKey, foreignGroup.id, 'otherProject');

      const response = await untranslated(project.id, '?languageCode=de');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ limit: 100, offset: 0, total: 3 });
      expect(names(response.body).sort()).toEqual(['nestedOne', 'openOne', 'portugueseOnly']);
      for (const item of response.body.result) expect(Object.keys(item).sort()).toEqual(UNTRANSLATED_KEYS);
      const byName = Object.fromEntries(response.body.result.map((e: any) => [e.technicalName, e]));
      expect(byName.openOne).toEqual({ id: open.id, groupId: group.id, technicalName: 'openOne', baseTerm: 'Open', contextInfo: 'hint' });
      expect(byName.nestedOne).toEqual({ id: nested.id, groupId: sub.id, technicalName: 'nestedOne', baseTerm: nested.baseTerm, contextInfo: null });

      const portuguese = await untranslated(project.id, '?languageCode=pt-BR');
      expect(names(portuguese.body).sort()).toEqual(['doneOne', 'nestedOne', 'openOne']);
    });

    it('pages with limit and offset; the pages cover every untranslated entry once', async () => {
      const { group, project } = await createProjectWithGroup(server, owner.apiKey);
      const all = ['pageOne', 'pageTwo', 'pageThree', 'pageFour', 'pageFive'];
      for (const name of all) await createEntry(server, owner.apiKey, group.id, name);
      const seen: string[] = [];
      for (const offset of [0, 2, 4]) {
        const response = await untranslated(project.id, `?languageCode=de&limit=2&offset=${offset}`);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ limit: 2, offset, total: 5 });
        expect(response.body.result).toHaveLength(offset === 4 ? 1 : 2);
        seen.push(...names(response.body));
      }
      expect(seen.sort()).toEqual([...all].sort());
      const beyond = await untranslated(project.id, '?languageCode=de&offset=5');
      expect(beyond.body).toEqual({ limit: 100, offset: 5, total: 5, result: [] });
    });

    it('orders untranslated entries oldest first, whatever their group or name', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const other = await createGroup(server, owner.apiKey, project.id, 'other');
      const order = [['zebra', group], ['yakker', other], ['xerus', group], ['walrus', other]] as const;
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        for (const [index, [name, target]] of order.entries()) {
          vi.setSystemTime(new Date(Date.UTC(2031, 0, 1, 0, 0, index)));
          await createEntry(server, owner.apiKey, target.id, name);
        }
      } finally {
        vi.useRealTimers();
      }
      expect(names((await untranslated(project.id, '?languageCode=de')).body)).toEqual(order.map(([name]) => name));
      expect(names((await untranslated(project.id, '?languageCode=de&limit=2&offset=1')).body)).toEqual(['yakker', 'xerus']);
    });

    it('drops an entry once it is translated and lists it again when the translation is deleted', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'flipFlop');
      await createEntry(server, owner.apiKey, group.id, 'steady');
      const current = async () => names((await untranslated(project.id, '?languageCode=de')).body).sort();

      expect(await current()).toEqual(['flipFlop', 'steady']);
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Hin und her');
      expect(await current()).toEqual(['steady']);
      const removed = await server.api('DELETE', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de' } });
      expect(removed.status).toBe(204);
      expect(await current()).toEqual(['flipFlop', 'steady']);
    });

    it("follows the project's languages: a new language lists every entry, a re-added one remembers its kept translations", async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const kept = await createEntry(server, owner.apiKey, group.id, 'kept');
      await createEntry(server, owner.apiKey, group.id, 'open');
      await setTranslation(server, owner.apiKey, kept.id, 'de', 'Behalten');
      const languagesAre = async (translationLanguages: string[]) =>
        expect((await server.api('PATCH', `/projects/${project.id}`, { key: owner.apiKey, body: { translationLanguages } })).status).toBe(200);
      const list = async (language: string) => {
        const body = (await untranslated(project.id, `?languageCode=${language}`)).body;
        return { names: names(body).sort(), total: body.total };
      };

      await languagesAre(['it']);
      expect(await list('it')).toEqual({ names: ['kept', 'open'], total: 2 });
      await languagesAre(['it', 'de']);
      expect(await list('de')).toEqual({ names: ['open'], total: 1 });
      await createEntry(server, owner.apiKey, group.id, 'later');
      expect(await list('it')).toEqual({ names: ['kept', 'later', 'open'], total: 3 });
      expect(await list('de')).toEqual({ names: ['later', 'open'], total: 2 });
    });

    it.each([
      ['languageCode missing', '', '/querystring/languageCode'],
      ['languageCode empty', '?languageCode=', '/querystring/languageCode'],
      ['an unknown locale', '?languageCode=xx', '/querystring/languageCode'],
      ['a wrongly cased locale', '?languageCode=pt-br', '/querystring/languageCode'],
      ['the base language', '?languageCode=en', '/querystring/languageCode'],
      ['a locale that is not a translation language of the project', '?languageCode=fr', '/querystring/languageCode'],
      ['a bad limit', '?languageCode=de&limit=0', '/querystring/limit'],
      ['a bad offset', '?languageCode=de&offset=-1', '/querystring/offset'],
    ])('refuses %s with 400', async (_label, query, path) => {
      const { project } = await createProjectWithGroup(server, owner.apiKey);
      const response = await untranslated(project.id, query);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, code: 'ERR_VALIDATION' });
      expect(response.body.details.map((d: any) => d.path)).toContain(path);
    });

    it('answers 404 ERR_PROJECT_NOT_FOUND to a stranger and for an unknown project', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      await createEntry(server, owner.apiKey, group.id, 'secret');
      for (const [projectId, key] of [[project.id, stranger.apiKey], ['doesnotexist', owner.apiKey]] as const) {
        const response = await untranslated(projectId, '?languageCode=de', key);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ statusCode: 404, code: 'ERR_PROJECT_NOT_FOUND', message: expect.any(String) });
      }
    });
  });

  describe('concurrency', () => {
    it('lets exactly one of 10 concurrent creates of one technicalName through; the others get 409', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body: { technicalName: 'raced', baseTerm: `Try ${i}` } }),
        ),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
      const winner = responses.find((r) => r.status === 200)!;
      expect((await list(group.id)).body.result).toEqual([winner.body]);
    });

    it('lets only one of a racing entry and sub-group with the same name through', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const [entry, sub] = await Promise.all([
        server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body: { technicalName: 'shared', baseTerm: 'x' } }),
        server.api('POST', `/projects/${project.id}/groups`, { key: owner.apiKey, body: { technicalName: 'shared', displayName: 'x', parentId: group.id } }),
      ]);
      expect([entry!.status, sub!.status].sort()).toEqual([200, 409]);
    });

    it('never leaves a translation behind when a delete of the entry races translation saves', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'shortLived');
      const saves = Array.from({ length: 6 }, (_, i) =>
        server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: i % 2 ? 'de' : 'pt-BR', translation: `T${i}` } }),
      );
      const [deleted, ...saved] = await Promise.all([server.api('DELETE', `/entries/${entry.id}`, { key: owner.apiKey }), ...saves]);
      expect(deleted!.status).toBe(204);
      for (const response of saved) {
        expect([200, 404], response.text).toContain(response.status);
        if (response.status === 404) expect(response.body).toEqual(notFoundBody);
      }
      expect(await translationRows(entry.id)).toEqual([]);
    });
  });

  describe('access', () => {
    it('hides another user\'s entry behind 404 ERR_NOT_FOUND on GET, PATCH and DELETE, and leaves it unchanged', async () => {
      const { group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await postEntry(group.id, { technicalName: 'private', baseTerm: 'Private', contextInfo: 'mine' });
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Privat');
      const before = (await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body;
      for (const [method, body] of [['GET'], ['PATCH', { baseTerm: 'Stolen', contextInfo: null }], ['DELETE']] as const) {
        const response = await server.api(method, `/entries/${entry.id}`, { key: stranger.apiKey, body });
        expect(response.status, method).toBe(404);
        expect(response.body, method).toEqual(notFoundBody);
      }
      expect((await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body).toEqual(before);
    });

    it('answers 401 ERR_UNAUTHORIZED without a key or with an invalid one, and changes nothing', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'guarded');
      const routes = [
        ['GET', `/groups/${group.id}/entries`],
        ['POST', `/groups/${group.id}/entries`, { technicalName: 'intruder', baseTerm: 'x' }],
        ['GET', `/entries/${entry.id}`],
        ['PATCH', `/entries/${entry.id}`, { baseTerm: 'Hacked' }],
        ['DELETE', `/entries/${entry.id}`],
        ['GET', `/projects/${project.id}/entries/untranslated?languageCode=de`],
      ] as const;
      for (const key of [null, 'tolk_notAValidKey']) {
        for (const [method, path, body] of routes) {
          const response = await server.api(method, path, { key, body });
          expect(response.status, `${method} ${path}`).toBe(401);
          expect(response.body).toEqual({ statusCode: 401, code: 'ERR_UNAUTHORIZED', message: expect.any(String) });
        }
      }
      expect((await list(group.id)).body.result).toEqual([entry]);
    });

    it('lets a viewer read entries but answers 403 ERR_FORBIDDEN to its create, patch and delete', async () => {
      const viewer = await server.user();
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'readOnly');
      await addMember(server, project.id, viewer.id, 'viewer');

      expect((await list(group.id, '', viewer.apiKey)).body.result).toEqual([entry]);
      expect((await server.api('GET', `/entries/${entry.id}`, { key: viewer.apiKey })).status).toBe(200);
      expect((await untranslated(project.id, '?languageCode=de', viewer.apiKey)).body.total).toBe(1);
      for (const [method, path, body] of [
        ['POST', `/groups/${group.id}/entries`, { technicalName: 'viewerMade', baseTerm: 'x' }],
        ['PATCH', `/entries/${entry.id}`, { baseTerm: 'Changed' }],
        ['DELETE', `/entries/${entry.id}`],
      ] as const) {
        const response = await server.api(method, path, { key: viewer.apiKey, body });
        expect(response.status, method).toBe(403);
        expect(response.body).toEqual({ statusCode: 403, code: 'ERR_FORBIDDEN', message: expect.any(String) });
      }
      expect((await list(group.id)).body.result).toEqual([entry]);
    });

    it('lets an editor create, patch and delete entries', async () => {
      const editor = await server.user();
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      await addMember(server, project.id, editor.id, 'editor');
      const entry = await createEntry(server, editor.apiKey, group.id, 'editorMade');
      expect((await server.api('PATCH', `/entries/${entry.id}`, { key: editor.apiKey, body: { baseTerm: 'Edited' } })).status).toBe(200);
      expect((await server.api('DELETE', `/entries/${entry.id}`, { key: editor.apiKey })).status).toBe(204);
    });

    it('treats a pending invitee like a stranger (404)', async () => {
      const invitee = await server.user();
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const entry = await createEntry(server, owner.apiKey, group.id, 'notYet');
      await addMember(server, project.id, invitee.id, 'editor', false);
      expect((await server.api('GET', `/entries/${entry.id}`, { key: invitee.apiKey })).body).toEqual(notFoundBody);
      expect((await list(group.id, '', invitee.apiKey)).body).toEqual(notFoundBody);
    });
  });

  /** POSTs an entry with the given body, asserts 200, returns the summary. */
  async function postEntry(groupId: string, body: Record<string, unknown>) {
    const response = await server.api('POST', `/groups/${groupId}/entries`, { key: owner.apiKey, body });
    expect(response.status, response.text).toBe(200);
    return response.body;
  }
});
