/**
 * The review list and the review counts of progress (CONTRACT "Review", Lists): GET
 * /projects/{id}/entries/unreviewed lists the entries whose translation in a language is not reviewed
 * or is outdated, with that translation, under the untranslated list's rules and order; GET
 * /projects/{id}/progress counts per language the reviewed (and current) and the outdated ones.
 * States are set through the review routes, as a client would.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createGroup, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServerWithUsers, type ApiResponse, type TestServer, type TestUser } from '../helpers/server.js';

const ITEM_KEYS = ['baseTerm', 'contextInfo', 'groupId', 'id', 'technicalName', 'translation'];

describe.each(DIALECTS)('the unreviewed list on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    ({ server, owner, stranger } = await startServerWithUsers(dialect));
  });
  afterAll(() => server?.close());

  const unreviewed = (projectId: string, query: string, key: string | null = owner.apiKey) =>
    server.api('GET', `/projects/${projectId}/entries/unreviewed${query}`, { key });
  const names = (body: { result: { technicalName: string }[] }) => body.result.map((item) => item.technicalName);
  /** The names listed for `language` and the total. */
  const listed = async (projectId: string, language = 'de') => {
    const response = await unreviewed(projectId, `?languageCode=${language}`);
    expect(response.status, response.text).toBe(200);
    return { names: names(response.body), total: response.body.total };
  };

  async function ok(response: Promise<ApiResponse>): Promise<ApiResponse> {
    const answer = await response;
    expect(answer.status, answer.text).toBe(200);
    return answer;
  }
  const review = (entryId: string, language = 'de') => ok(server.api('POST', `/entries/${entryId}/translations/review`, { key: owner.apiKey, body: { language } }));
  const unreview = (entryId: string, language = 'de') => ok(server.api('DELETE', `/entries/${entryId}/translations/review`, { key: owner.apiKey, body: { language } }));
  const confirm = (entryId: string, language = 'de') => ok(server.api('POST', `/entries/${entryId}/translations/confirm`, { key: owner.apiKey, body: { language } }));
  const editBase = (entryId: string, baseTerm: string, minorEdit?: boolean) =>
    ok(server.api('PATCH', `/entries/${entryId}`, { key: owner.apiKey, body: { baseTerm, ...(minorEdit === undefined ? {} : { minorEdit }) } }));

  it('lists the entries whose translation in languageCode is not reviewed, each with that translation; not the reviewed, the untranslated, other languages or projects', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const sub = await createGroup(server, owner.apiKey, project.id, 'sub', group.id);
    const open = await createEntry(server, owner.apiKey, group.id, 'openOne');
    const reviewed = await createEntry(server, owner.apiKey, group.id, 'reviewedOne');
    await createEntry(server, owner.apiKey, group.id, 'untranslatedOne');
    const portuguese = await createEntry(server, owner.apiKey, group.id, 'portugueseOnly');
    const nested = await createEntry(server, owner.apiKey, sub.id, 'nestedOne');
    await setTranslation(server, owner.apiKey, open.id, 'de', 'Offen');
    await setTranslation(server, owner.apiKey, reviewed.id, 'de', 'Geprüft');
    await setTranslation(server, owner.apiKey, portuguese.id, 'pt-BR', 'Só português');
    await setTranslation(server, owner.apiKey, nested.id, 'de', 'Verschachtelt');
    await review(reviewed.id);
    const { group: foreignGroup } = await createProjectWithGroup(server, owner.apiKey);
    await setTranslation(server, owner.apiKey, (await createEntry(server, owner.apiKey, foreignGroup.id, 'otherProject')).id, 'de', 'Fremd');

    const response = await unreviewed(project.id, '?languageCode=de');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ limit: 100, offset: 0, total: 2 });
    expect(names(response.body)).toEqual(['openOne', 'nestedOne']);
    for (const item of response.body.result) {
      expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
      // the translation as the entry itself shows it
      const entry = (await server.api('GET', `/entries/${item.id}`, { key: owner.apiKey })).body;
      expect(item).toEqual({
        id: entry.id,
        groupId: entry.groupId,
        technicalName: entry.technicalName,
        baseTerm: entry.baseTerm,
        contextInfo: entry.contextInfo,
        translation: entry.translations.find((translation: { language: string }) => translation.language === 'de'),
      });
    }
    expect(response.body.result[1]).toMatchObject({ groupId: sub.id, translation: { translation: 'Verschachtelt', state: 'translated', outdated: false, reviewedBy: null } });
    expect(await listed(project.id, 'pt-BR')).toEqual({ names: ['portugueseOnly'], total: 1 });
  });

  it('lists a reviewed translation again once its base term changes (reviewed and outdated), not after a minor edit; a review takes it off again', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'changing', 'Save');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
    expect(await listed(project.id)).toEqual({ names: ['changing'], total: 1 });
    await review(entry.id);
    expect(await listed(project.id)).toEqual({ names: [], total: 0 });

    await editBase(entry.id, 'Sve', true);
    expect(await listed(project.id)).toEqual({ names: [], total: 0 });
    await editBase(entry.id, 'Save all');
    const outdated = await unreviewed(project.id, '?languageCode=de');
    expect(outdated.body.total).toBe(1);
    expect(outdated.body.result[0]).toMatchObject({ baseTerm: 'Save all', translation: { state: 'reviewed', outdated: true, reviewedBy: { id: owner.id } } });

    await review(entry.id);
    expect(await listed(project.id)).toEqual({ names: [], total: 0 });
    // a new text is to review again, its last review kept meanwhile
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Alles speichern');
    const edited = await unreviewed(project.id, '?languageCode=de');
    expect(edited.body.result.map((item: any) => [item.technicalName, item.translation.state, item.translation.reviewedText])).toEqual([['changing', 'translated', 'Speichern']]);
  });

  it('keeps a translated one listed whatever else happens to it: confirmed after a base edit, unreviewed', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'steady', 'Open');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Öffnen');
    await editBase(entry.id, 'Open now');
    expect((await unreviewed(project.id, '?languageCode=de')).body.result[0].translation).toMatchObject({ state: 'translated', outdated: true });
    await confirm(entry.id);
    expect((await unreviewed(project.id, '?languageCode=de')).body.result[0].translation).toMatchObject({ state: 'translated', outdated: false });
    await review(entry.id);
    expect(await listed(project.id)).toEqual({ names: [], total: 0 });
    await unreview(entry.id);
    expect(await listed(project.id)).toEqual({ names: ['steady'], total: 1 });
  });

  it('orders oldest entry first, whatever its group, name or when it was translated; pages with limit and offset, each page with the total', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const other = await createGroup(server, owner.apiKey, project.id, 'other');
    const order = [['zebra', group], ['yakker', other], ['reviewedA', group], ['xerus', group], ['walrus', other], ['reviewedB', other], ['vole', group]] as const;
    const ids: Record<string, string> = {};
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const [index, [name, target]] of order.entries()) {
        vi.setSystemTime(new Date(Date.UTC(2031, 0, 1, 0, 0, index)));
        ids[name] = (await createEntry(server, owner.apiKey, target.id, name)).id;
      }
    } finally {
      vi.useRealTimers();
    }
    // translated newest first: the list's order is the entries', not the translations'
    for (const [name] of [...order].reverse()) await setTranslation(server, owner.apiKey, ids[name]!, 'de', `Text ${name}`);
    await review(ids.reviewedA!);
    await review(ids.reviewedB!);

    const expected = ['zebra', 'yakker', 'xerus', 'walrus', 'vole'];
    expect(await listed(project.id)).toEqual({ names: expected, total: 5 });
    const seen: string[] = [];
    for (const offset of [0, 2, 4]) {
      const response = await unreviewed(project.id, `?languageCode=de&limit=2&offset=${offset}`);
      expect(response.body).toMatchObject({ limit: 2, offset, total: 5 });
      seen.push(...names(response.body));
    }
    expect(seen).toEqual(expected);
    expect((await unreviewed(project.id, '?languageCode=de&offset=5')).body).toEqual({ limit: 100, offset: 5, total: 5, result: [] });
    expect((await unreviewed(project.id, '?languageCode=de&offset=50&limit=1')).body).toEqual({ limit: 1, offset: 50, total: 5, result: [] });

    // a review changes every page and the total at once (nothing kept from before it)
    await review(ids.yakker!);
    const after = await unreviewed(project.id, '?languageCode=de&limit=2&offset=2');
    expect(after.body).toMatchObject({ total: 4 });
    expect(names(after.body)).toEqual(['walrus', 'vole']);
    expect((await unreviewed(project.id, '?languageCode=de&limit=2')).body).toMatchObject({ total: 4 });
  });

  it.each([
    ['languageCode missing', '', '/querystring/languageCode'],
    ['languageCode empty', '?languageCode=', '/querystring/languageCode'],
    ['an unknown locale', '?languageCode=xx', '/querystring/languageCode'],
    ['a wrongly cased locale', '?languageCode=pt-br', '/querystring/languageCode'],
    ['the base language', '?languageCode=en', '/querystring/languageCode'],
    ['a locale that is not a translation language of the project', '?languageCode=fr', '/querystring/languageCode'],
    ['a bad limit', '?languageCode=de&limit=101', '/querystring/limit'],
    ['a bad offset', '?languageCode=de&offset=-1', '/querystring/offset'],
  ])('refuses %s with 400 ERR_VALIDATION', async (_label, query, path) => {
    const { project } = await createProjectWithGroup(server, owner.apiKey);
    const response = await unreviewed(project.id, query);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, code: 'ERR_VALIDATION' });
    expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it('answers 404 ERR_PROJECT_NOT_FOUND to a stranger and for an unknown project, 401 without a key; any member reads it', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    await setTranslation(server, owner.apiKey, (await createEntry(server, owner.apiKey, group.id, 'secret')).id, 'de', 'Geheim');
    for (const [projectId, key] of [[project.id, stranger.apiKey], ['doesnotexist', owner.apiKey]] as const) {
      const response = await unreviewed(projectId, '?languageCode=de', key);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ statusCode: 404, code: 'ERR_PROJECT_NOT_FOUND', message: expect.any(String) });
    }
    expect((await unreviewed(project.id, '?languageCode=de', null)).status).toBe(401);
    const viewer = await server.user();
    await addMember(server, project.id, viewer.id, 'viewer');
    expect((await unreviewed(project.id, '?languageCode=de', viewer.apiKey)).body).toMatchObject({ total: 1, result: [{ technicalName: 'secret' }] });
  });

  describe('progress', () => {
    const progressOf = async (projectId: string, key = owner.apiKey) => {
      const response = await server.api('GET', `/projects/${projectId}/progress`, { key });
      expect(response.status, response.text).toBe(200);
      return response.body;
    };

    it('counts per language the translated, untranslated, reviewed (and current) and outdated; translated − reviewed is the unreviewed total', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const entry: Record<string, string> = {};
      for (const name of ['plain', 'approved', 'approvedThenChanged', 'changed', 'approvedThenTypo', 'empty', 'rewritten']) {
        entry[name] = (await createEntry(server, owner.apiKey, group.id, name)).id;
      }
      for (const name of ['plain', 'approved', 'approvedThenChanged', 'changed', 'approvedThenTypo', 'rewritten']) {
        await setTranslation(server, owner.apiKey, entry[name]!, 'de', `Deutsch ${name}`);
      }
      await setTranslation(server, owner.apiKey, entry.plain!, 'pt-BR', 'Simples');
      await setTranslation(server, owner.apiKey, entry.approvedThenChanged!, 'pt-BR', 'Mudou');
      for (const name of ['approved', 'approvedThenChanged', 'approvedThenTypo', 'rewritten']) await review(entry[name]!);
      await review(entry.plain!, 'pt-BR');
      await editBase(entry.approvedThenChanged!, 'A new meaning');
      await editBase(entry.changed!, 'Another meaning');
      await editBase(entry.approvedThenTypo!, 'A typo fixed', true);
      await setTranslation(server, owner.apiKey, entry.rewritten!, 'de', 'Neu geschrieben');

      // de: reviewed and current are approved and approvedThenTypo; outdated are approvedThenChanged (reviewed) and changed (translated)
      // pt-BR: plain reviewed; approvedThenChanged outdated
      expect(await progressOf(project.id)).toEqual({
        entryCount: 7,
        languages: [
          { language: 'de', translated: 6, untranslated: 1, reviewed: 2, outdated: 2 },
          { language: 'pt-BR', translated: 2, untranslated: 5, reviewed: 1, outdated: 1 },
        ],
      });
      expect((await listed(project.id, 'de')).total).toBe(6 - 2);
      expect((await listed(project.id, 'pt-BR')).total).toBe(2 - 1);

      // a confirm clears outdated (a translated one stays to review); a review of an outdated one makes it reviewed and current
      await confirm(entry.changed!);
      await review(entry.approvedThenChanged!);
      expect((await progressOf(project.id)).languages[0]).toEqual({ language: 'de', translated: 6, untranslated: 1, reviewed: 3, outdated: 0 });
      expect((await listed(project.id, 'de')).total).toBe(3);
    });

    it('counts nothing reviewed or outdated in a project without reviews, and nothing of another project', async () => {
      const { project, group } = await createProjectWithGroup(server, owner.apiKey);
      const only = await createEntry(server, owner.apiKey, group.id, 'only');
      await setTranslation(server, owner.apiKey, only.id, 'de', 'Einzig');
      const { project: other, group: otherGroup } = await createProjectWithGroup(server, owner.apiKey);
      const elsewhere = await createEntry(server, owner.apiKey, otherGroup.id, 'elsewhere');
      await setTranslation(server, owner.apiKey, elsewhere.id, 'de', 'Anderswo');
      await review(elsewhere.id);
      await editBase(elsewhere.id, 'Changed elsewhere');

      expect(await progressOf(project.id)).toEqual({
        entryCount: 1,
        languages: [
          { language: 'de', translated: 1, untranslated: 0, reviewed: 0, outdated: 0 },
          { language: 'pt-BR', translated: 0, untranslated: 1, reviewed: 0, outdated: 0 },
        ],
      });
      expect((await progressOf(other.id)).languages[0]).toEqual({ language: 'de', translated: 1, untranslated: 0, reviewed: 0, outdated: 1 });
    });
  });
});
