/**
 * The review routes (CONTRACT "Review"): review bound to the text read (If-Match), refusals, the bulk
 * review as one change set, and review changes in the history, reverted like any other. Both stores.
 * Every transition × role is in review-states.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';
import { checkIntegrity } from '../helpers/integrity.js';

describe.each(DIALECTS)('review on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let reviewer: TestUser;
  let translator: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
    reviewer = await server.user();
    translator = await server.user();
  });
  afterAll(() => server?.close());

  async function project() {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey, 'main', { translationLanguages: ['de', 'fr'] });
    await addMember(server, project.id, reviewer.id, 'reviewer');
    await addMember(server, project.id, translator.id, 'translator');
    return { project, group };
  }
  const review = (entryId: string, language: string, options: { key?: string; ifMatch?: string } = {}) =>
    server.api('POST', `/entries/${entryId}/translations/review`, {
      key: options.key ?? reviewer.apiKey,
      body: { language },
      headers: options.ifMatch === undefined ? {} : { 'if-match': options.ifMatch },
    });
  const unreview = (entryId: string, language: string, key = reviewer.apiKey) => server.api('DELETE', `/entries/${entryId}/translations/review`, { key, body: { language } });
  const bulk = (projectId: string, body: unknown, key = reviewer.apiKey) => server.api('POST', `/projects/${projectId}/reviews`, { key, body });
  const translationIn = async (entryId: string, language: string) =>
    (await server.api('GET', `/entries/${entryId}`, { key: owner.apiKey })).body.translations.find((t: any) => t.language === language);
  const latestSet = async (projectId: string) => (await server.api('GET', `/projects/${projectId}/change-sets?limit=1`, { key: owner.apiKey })).body.result[0];
  const changesOf = async (setId: string, projectId: string) =>
    (await server.api('GET', `/projects/${projectId}/changes?changeSetId=${setId}`, { key: owner.apiKey })).body.result;

  it('reviews the text the reviewer read: the answer is the reviewed Translation with the same ETag; a text changed since → 412, nothing reviewed', async () => {
    const { group } = await project();
    const entry = await createEntry(server, owner.apiKey, group.id, 'save', 'Save');
    const saved = await setTranslation(server, translator.apiKey, entry.id, 'de', 'Speichern');

    const done = await review(entry.id, 'de', { ifMatch: `"${saved.updatedAt}"` });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({
      ...saved,
      state: 'reviewed',
      outdated: false,
      reviewedBy: { id: reviewer.id, firstName: expect.any(String), lastName: expect.any(String) },
      reviewedAt: expect.any(String),
      reviewedText: null,
    });
    // the text did not change: neither did updatedAt nor the ETag
    expect(done.headers.get('etag')).toBe(`"${saved.updatedAt}"`);
    expect(await translationIn(entry.id, 'de')).toEqual(done.body);

    const edited = await setTranslation(server, translator.apiKey, entry.id, 'de', 'Sichern');
    expect(edited).toMatchObject({ state: 'translated', reviewedText: 'Speichern', reviewedBy: { id: reviewer.id } });
    const stale = await review(entry.id, 'de', { ifMatch: `"${saved.updatedAt}"` });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('ERR_PRECONDITION_FAILED');
    expect(await translationIn(entry.id, 'de')).toMatchObject({ state: 'translated', translation: 'Sichern', reviewedText: 'Speichern' });
    const fresh = await review(entry.id, 'de', { ifMatch: `"${edited.updatedAt}"` });
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ state: 'reviewed', translation: 'Sichern', reviewedText: null });
  });

  it('refuses a language outside the project (400), a missing translation (404), an unknown entry (404), a translator (403), a stranger (404)', async () => {
    const { group } = await project();
    const entry = await createEntry(server, owner.apiKey, group.id, 'save', 'Save');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Speichern');
    const stranger = await server.user();
    expect((await review(entry.id, 'en')).status).toBe(400); // the base language
    expect((await review(entry.id, 'ja')).body.code).toBe('ERR_VALIDATION');
    expect((await review(entry.id, 'not a tag')).status).toBe(400);
    const missing = await review(entry.id, 'fr');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('ERR_NOT_FOUND');
    expect((await review('nosuchentry', 'de')).status).toBe(404);
    expect((await review(entry.id, 'de', { key: translator.apiKey })).body.code).toBe('ERR_FORBIDDEN');
    expect((await unreview(entry.id, 'de', translator.apiKey)).status).toBe(403);
    expect((await review(entry.id, 'de', { key: stranger.apiKey })).status).toBe(404);
    const extra = await server.api('POST', `/entries/${entry.id}/translations/review`, { key: reviewer.apiKey, body: { language: 'de', state: 'reviewed' } });
    expect(extra.status).toBe(400);
    expect(await translationIn(entry.id, 'de')).toMatchObject({ state: 'translated', reviewedBy: null });
  });

  it('bulk-reviews up to 1,000 entries as one change set: reviewed, unchanged, refused with reasons; a repeated id counts once', async () => {
    const { project: p, group } = await project();
    const a = await createEntry(server, owner.apiKey, group.id, 'alpha', 'Alpha');
    const b = await createEntry(server, owner.apiKey, group.id, 'beta', 'Beta');
    const c = await createEntry(server, owner.apiKey, group.id, 'gamma', 'Gamma');
    const untranslated = await createEntry(server, owner.apiKey, group.id, 'delta', 'Delta');
    for (const [entry, text] of [[a, 'Alpha!'], [b, 'Beta!'], [c, 'Gamma!']] as const) await setTranslation(server, owner.apiKey, entry.id, 'de', text);
    expect((await review(c.id, 'de')).status).toBe(200);
    const other = await createProjectWithGroup(server, owner.apiKey);
    const foreign = await createEntry(server, owner.apiKey, other.group.id, 'foreign', 'Foreign');
    const versionBefore = (await latestSet(p.id)).version;

    const done = await bulk(p.id, { language: 'de', entryIds: [a.id, b.id, a.id, c.id, untranslated.id, foreign.id, 'nosuch'] });
    expect(done.status, done.text).toBe(200);
    expect(done.body.reviewed).toBe(2);
    expect(done.body.unchanged).toBe(1);
    expect(done.body.refused).toEqual([
      { entryId: untranslated.id, message: expect.stringContaining('no translation') },
      { entryId: foreign.id, message: expect.stringContaining('no entry') },
      { entryId: 'nosuch', message: expect.stringContaining('no entry') },
    ]);
    const set = await latestSet(p.id);
    expect(set).toMatchObject({ version: versionBefore + 1, summary: { created: 0, updated: 2, deleted: 0 }, user: { id: reviewer.id } });
    const changes = await changesOf(set.id, p.id);
    expect(changes.map((change: any) => [change.entryId, change.before.state, change.after.state]).sort()).toEqual(
      [[a.id, 'translated', 'reviewed'], [b.id, 'translated', 'reviewed']].sort(),
    );
    for (const entry of [a, b]) expect(await translationIn(entry.id, 'de')).toMatchObject({ state: 'reviewed', reviewedBy: { id: reviewer.id } });
    // the foreign entry was not touched
    expect((await server.api('GET', `/entries/${foreign.id}`, { key: owner.apiKey })).body.translations).toEqual([]);

    // nothing to review: no change set
    const again = await bulk(p.id, { language: 'de', entryIds: [a.id, b.id] });
    expect(again.body).toEqual({ reviewed: 0, unchanged: 2, refused: [] });
    expect((await latestSet(p.id)).id).toBe(set.id);
  });

  it('refuses a bulk review of no ids, of 1,001, in a language outside the project, by a translator, of a project the caller cannot see', async () => {
    const { project: p, group } = await project();
    const entry = await createEntry(server, owner.apiKey, group.id, 'alpha', 'Alpha');
    await setTranslation(server, owner.apiKey, entry.id, 'de', 'Alpha!');
    expect((await bulk(p.id, { language: 'de', entryIds: [] })).status).toBe(400);
    const many = Array.from({ length: 1001 }, (_, i) => `id${i}`);
    expect((await bulk(p.id, { language: 'de', entryIds: many })).status).toBe(400);
    expect((await bulk(p.id, { language: 'de', entryIds: many.slice(0, 1000) })).body.refused).toHaveLength(1000);
    expect((await bulk(p.id, { language: 'en', entryIds: [entry.id] })).body.code).toBe('ERR_VALIDATION');
    expect((await bulk(p.id, { language: 'de' })).status).toBe(400);
    expect((await bulk(p.id, { language: 'de', entryIds: [entry.id] }, translator.apiKey)).status).toBe(403);
    const stranger = await server.user();
    expect((await bulk(p.id, { language: 'de', entryIds: [entry.id] }, stranger.apiKey)).body.code).toBe('ERR_PROJECT_NOT_FOUND');
    expect(await translationIn(entry.id, 'de')).toMatchObject({ state: 'translated' });
  });

  it('records review, unreview and confirm as translation changes with state and outdated; reverting them puts the states back, the review with its reviewer', async () => {
    const { project: p, group } = await project();
    const entry = await createEntry(server, owner.apiKey, group.id, 'save', 'Save');
    await setTranslation(server, translator.apiKey, entry.id, 'de', 'Speichern');
    const reviewed = (await review(entry.id, 'de')).body;
    const reviewSet = await latestSet(p.id);
    const [reviewChange] = await changesOf(reviewSet.id, p.id);
    expect(reviewChange).toMatchObject({
      target: 'translation',
      op: 'update',
      language: 'de',
      key: 'main.save',
      before: { text: 'Speichern', state: 'translated', outdated: false },
      after: { text: 'Speichern', state: 'reviewed', outdated: false },
    });

    // an unreview, reverted: the review that shipped comes back, by its reviewer (not by whoever reverts)
    expect((await unreview(entry.id, 'de')).body).toMatchObject({ state: 'translated', reviewedBy: null, reviewedText: null });
    const unreviewSet = await latestSet(p.id);
    expect((await changesOf(unreviewSet.id, p.id))[0]).toMatchObject({ before: { state: 'reviewed' }, after: { state: 'translated' } });
    const undone = await server.api('POST', `/change-sets/${unreviewSet.id}/revert`, { key: owner.apiKey });
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body.restored).toBe(1);
    expect(await translationIn(entry.id, 'de')).toEqual(reviewed);

    // a base term edit makes it outdated (one entry change, no translation change); confirm clears it, and is a change
    await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { baseTerm: 'Save it' } });
    const editSet = await latestSet(p.id);
    expect((await changesOf(editSet.id, p.id)).map((change: any) => change.target)).toEqual(['entry']);
    expect(await translationIn(entry.id, 'de')).toMatchObject({ state: 'reviewed', outdated: true });
    const confirmed = await server.api('POST', `/entries/${entry.id}/translations/confirm`, { key: translator.apiKey, body: { language: 'de' } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({ state: 'reviewed', outdated: false, reviewedBy: { id: reviewer.id } });
    const confirmSet = await latestSet(p.id);
    expect((await changesOf(confirmSet.id, p.id))[0]).toMatchObject({ before: { state: 'reviewed', outdated: true }, after: { state: 'reviewed', outdated: false } });
    // the three-way rule compares a translation's text and state (CONTRACT "History"), and a confirm moves
    // neither: its revert finds the translation as it was before, and changes nothing
    const unconfirm = await server.api('POST', `/change-sets/${confirmSet.id}/revert`, { key: owner.apiKey });
    expect(unconfirm.body).toMatchObject({ restored: 0, unchanged: 1, changeSet: null });
    expect(await translationIn(entry.id, 'de')).toMatchObject({ state: 'reviewed', outdated: false });

    // reverting the review itself needs canReview: a translator may not, a reviewer may
    const refused = await server.api('POST', `/change-sets/${reviewSet.id}/revert`, { key: translator.apiKey });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('canReview');
    const reverted = await server.api('POST', `/change-sets/${reviewSet.id}/revert?onConflict=skip`, { key: reviewer.apiKey });
    expect(reverted.status, reverted.text).toBe(200);
    expect(await translationIn(entry.id, 'de')).toMatchObject({ state: 'translated', reviewedBy: null });
  });

  it('a save of a reviewed text, reverted: the old text comes back reviewed, with its review', async () => {
    const { project: p, group } = await project();
    const entry = await createEntry(server, owner.apiKey, group.id, 'save', 'Save');
    await setTranslation(server, translator.apiKey, entry.id, 'de', 'Speichern');
    const reviewed = (await review(entry.id, 'de')).body;
    await setTranslation(server, translator.apiKey, entry.id, 'de', 'Sichern');
    const save = await latestSet(p.id);
    expect((await changesOf(save.id, p.id))[0]).toMatchObject({ before: { text: 'Speichern', state: 'reviewed' }, after: { text: 'Sichern', state: 'translated' } });
    // the translator made the save, but undoing it makes a text reviewed again: a review's capability
    expect((await server.api('POST', `/change-sets/${save.id}/revert`, { key: translator.apiKey })).status).toBe(403);
    expect((await server.api('POST', `/change-sets/${save.id}/revert`, { key: reviewer.apiKey })).status).toBe(200);
    const now = await translationIn(entry.id, 'de');
    expect(now).toMatchObject({ translation: 'Speichern', state: 'reviewed', reviewedBy: reviewed.reviewedBy, reviewedAt: reviewed.reviewedAt, reviewedText: null });
  });

  it('a deleted entry brought back by a revert keeps its translations\' states and reviews', async () => {
    const { project: p, group } = await project();
    const entry = await createEntry(server, owner.apiKey, group.id, 'save', 'Save');
    await setTranslation(server, translator.apiKey, entry.id, 'de', 'Speichern');
    await setTranslation(server, translator.apiKey, entry.id, 'fr', 'Enregistrer');
    const reviewed = (await review(entry.id, 'de')).body;
    expect((await server.api('DELETE', `/entries/${entry.id}`, { key: owner.apiKey })).status).toBe(204);
    const deletion = await latestSet(p.id);
    const undone = await server.api('POST', `/change-sets/${deletion.id}/revert`, { key: owner.apiKey });
    expect(undone.status, undone.text).toBe(200);
    const back = undone.body.created[0].id;
    expect(await translationIn(back, 'de')).toMatchObject({ translation: 'Speichern', state: 'reviewed', outdated: false, reviewedBy: reviewed.reviewedBy, reviewedAt: reviewed.reviewedAt });
    expect(await translationIn(back, 'fr')).toMatchObject({ translation: 'Enregistrer', state: 'translated', reviewedBy: null });
  });

  // whatever the tests wrote, the store keeps its invariants (review states among them: tolk doctor's check)
  it('leaves a store whose invariants hold', async () => {
    expect(await checkIntegrity(server.store.db)).toEqual([]);
  });
});
