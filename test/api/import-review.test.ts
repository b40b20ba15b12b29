/**
 * Review states in imports (CONTRACT "Review", "Import", "History"): what an import writes is
 * `translated` (a replaced text keeps the review it had, a base term it changes outdates the texts it
 * leaves); markReviewed=true (canReview) writes it `reviewed` by the importer and reviews the unchanged
 * texts too; the import's changes record the exact states, so its revert puts them back. `tolk push
 * --mark-reviewed` (the built CLI: build dist/ first) asks for it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';
import { checkIntegrity } from '../helpers/integrity.js';

describe.each(DIALECTS)('review states in imports on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
    other = await server.user();
  });
  afterAll(() => server?.close());

  /** A project (en; de, fr) holding `home.title` and `home.body`, with `texts` imported over it by the owner. */
  async function projectWith(texts: Record<string, Record<string, string>> = {}): Promise<string> {
    const projectId = (await createProject(server, owner.apiKey, { baseLanguage: 'en', translationLanguages: ['de', 'fr'] })).id as string;
    const body = { en: { home: { title: 'Home', body: 'Body' } }, ...Object.fromEntries(Object.entries(texts).map(([language, home]) => [language, { home }])) };
    const imported = await importInto(projectId, body);
    expect(imported.status, imported.text).toBe(200);
    return projectId;
  }

  const importInto = (projectId: string, body: object, query = '', key = owner.apiKey) =>
    server.api('POST', `/projects/${projectId}/import?format=json${query}`, { key, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  /** The entry `home.<name>` with its translations by language. */
  async function entryOf(projectId: string, name: string) {
    const groups = await server.api('GET', `/projects/${projectId}/groups`, { key: owner.apiKey });
    const home = groups.body.result.find((group: any) => group.technicalName === 'home');
    const listed = await server.api('GET', `/groups/${home.id}/entries`, { key: owner.apiKey });
    const id = listed.body.result.find((entry: any) => entry.technicalName === name).id as string;
    const entry = await server.api('GET', `/entries/${id}`, { key: owner.apiKey });
    expect(entry.status, entry.text).toBe(200);
    return { id, baseTerm: entry.body.baseTerm as string, translations: Object.fromEntries(entry.body.translations.map((t: any) => [t.language, t])) as Record<string, any> };
  }

  const setCount = async (projectId: string) => (await server.api('GET', `/projects/${projectId}/change-sets?limit=1`, { key: owner.apiKey })).body.total as number;

  /** The translation changes of a change set, by `<entry name>/<language>`. */
  async function changesOf(projectId: string, changeSetId: string) {
    const changes = await server.api('GET', `/projects/${projectId}/changes?changeSetId=${changeSetId}&target=translation`, { key: owner.apiKey });
    expect(changes.status, changes.text).toBe(200);
    return Object.fromEntries(changes.body.result.map((change: any) => [`${change.key.split('.').at(-1)}/${change.language}`, change])) as Record<string, any>;
  }

  describe('markReviewed=true', () => {
    it('reviews by the importer what it creates, replaces and leaves unchanged, and counts them', async () => {
      const projectId = await projectWith({ de: { title: 'Start' }, fr: { title: 'Accueil' } });
      await addMember(server, projectId, other.id, 'reviewer');
      const imported = await importInto(projectId, { de: { home: { title: 'Startseite', body: 'Inhalt' } }, fr: { home: { title: 'Accueil' } } }, '&mode=overwrite&markReviewed=true', other.apiKey);
      expect(imported.status, imported.text).toBe(200);
      expect(imported.body.translations).toEqual({ created: 1, updated: 1, unchanged: 1, reviewed: 3 });
      const title = await entryOf(projectId, 'title');
      const body = await entryOf(projectId, 'body');
      for (const [translation, text] of [[title.translations.de, 'Startseite'], [title.translations.fr, 'Accueil'], [body.translations.de, 'Inhalt']] as const) {
        expect(translation).toMatchObject({ translation: text, state: 'reviewed', outdated: false, reviewedText: null, reviewedBy: { id: other.id } });
        expect(translation.reviewedAt).toEqual(expect.any(String));
      }
      // the unchanged text kept its text's time (its ETag) and its translator
      expect(title.translations.fr.translatorId).toBe(owner.id);
    });

    it('leaves a reviewed, current translation as it is: its first reviewer stays, nothing is written', async () => {
      const projectId = await projectWith();
      const first = await importInto(projectId, { de: { home: { title: 'Start' } } }, '&markReviewed=true');
      expect(first.body.translations).toMatchObject({ created: 1, reviewed: 1 });
      const before = (await entryOf(projectId, 'title')).translations.de;
      await addMember(server, projectId, other.id, 'editor');
      const again = await importInto(projectId, { de: { home: { title: 'Start' } } }, '&markReviewed=true', other.apiKey);
      expect(again.status, again.text).toBe(200);
      expect(again.body.translations).toEqual({ created: 0, updated: 0, unchanged: 1, reviewed: 0 });
      expect(again.body.changeSetId).toBeNull();
      expect((await entryOf(projectId, 'title')).translations.de).toEqual(before);
      expect(before.reviewedBy.id).toBe(owner.id);
    });

    it('reviews again, against the new base term, a reviewed translation the same import outdates', async () => {
      const projectId = await projectWith();
      await importInto(projectId, { de: { home: { title: 'Start' } }, fr: { home: { title: 'Accueil' } } }, '&markReviewed=true');
      await addMember(server, projectId, other.id, 'editor');
      const imported = await importInto(projectId, { en: { home: { title: 'Homepage' } }, de: { home: { title: 'Start' } } }, '&mode=overwrite&markReviewed=true', other.apiKey);
      expect(imported.status, imported.text).toBe(200);
      expect(imported.body.translations).toEqual({ created: 0, updated: 0, unchanged: 1, reviewed: 1 });
      const title = await entryOf(projectId, 'title');
      expect(title.baseTerm).toBe('Homepage');
      expect(title.translations.de).toMatchObject({ state: 'reviewed', outdated: false, reviewedBy: { id: other.id } });
      // fr was not in the files: reviewed once, now outdated
      expect(title.translations.fr).toMatchObject({ state: 'reviewed', outdated: true, reviewedBy: { id: owner.id } });
    });

    it('does not review the conflicts mode=keep leaves', async () => {
      const projectId = await projectWith({ de: { title: 'Start' } });
      const imported = await importInto(projectId, { de: { home: { title: 'Beginn', body: 'Inhalt' } } }, '&markReviewed=true');
      expect(imported.status, imported.text).toBe(200);
      expect(imported.body.conflicts).toEqual([{ key: 'home.title', language: 'de', stored: 'Start', imported: 'Beginn' }]);
      expect(imported.body.translations).toEqual({ created: 1, updated: 0, unchanged: 0, reviewed: 1 });
      expect((await entryOf(projectId, 'title')).translations.de).toMatchObject({ translation: 'Start', state: 'translated', reviewedBy: null });
      expect((await entryOf(projectId, 'body')).translations.de).toMatchObject({ translation: 'Inhalt', state: 'reviewed' });
    });

    it('needs canReview: a translator gets 403 naming it and nothing is written, a dry run too', async () => {
      const projectId = await projectWith({ de: { title: 'Start' } });
      await addMember(server, projectId, other.id, 'translator');
      const sets = await setCount(projectId);
      const files = { de: { home: { title: 'Beginn', body: 'Inhalt' } } };
      for (const query of ['&mode=overwrite&markReviewed=true', '&mode=overwrite&markReviewed=true&dryRun=true']) {
        const refused = await importInto(projectId, files, query, other.apiKey);
        expect(refused.status, refused.text).toBe(403);
        expect(refused.body.code).toBe('ERR_FORBIDDEN');
        expect(refused.body.message).toContain('canReview');
      }
      expect(await setCount(projectId)).toBe(sets);
      expect((await entryOf(projectId, 'title')).translations.de).toMatchObject({ translation: 'Start', state: 'translated' });
      expect((await entryOf(projectId, 'body')).translations.de).toBeUndefined();
      // the same import without markReviewed is the translator's to make
      const plain = await importInto(projectId, files, '&mode=overwrite', other.apiKey);
      expect(plain.status, plain.text).toBe(200);
      expect(plain.body.translations).toEqual({ created: 1, updated: 1, unchanged: 0 });
    });

    it('in a dry run counts what it would review and writes nothing', async () => {
      const projectId = await projectWith({ de: { title: 'Start' }, fr: { title: 'Accueil' } });
      const sets = await setCount(projectId);
      const dry = await importInto(projectId, { de: { home: { title: 'Beginn', body: 'Inhalt' } }, fr: { home: { title: 'Accueil' } } }, '&mode=overwrite&markReviewed=true&dryRun=true');
      expect(dry.status, dry.text).toBe(200);
      expect(dry.body).toMatchObject({ dryRun: true, changeSetId: null, translations: { created: 1, updated: 1, unchanged: 1, reviewed: 3 } });
      expect(await setCount(projectId)).toBe(sets);
      const title = await entryOf(projectId, 'title');
      expect(title.translations.de).toMatchObject({ translation: 'Start', state: 'translated', reviewedBy: null });
      expect(title.translations.fr).toMatchObject({ state: 'translated', reviewedBy: null });
      expect((await entryOf(projectId, 'body')).translations.de).toBeUndefined();
    });
  });

  it('tolk push --mark-reviewed imports with markReviewed=true and prints how many it reviewed', async () => {
    const projectId = await projectWith({ de: { title: 'Start' } });
    const file = join(mkdtempSync(join(tmpdir(), 'tolk-push-review-')), 'messages.json');
    writeFileSync(file, JSON.stringify({ de: { home: { title: 'Start', body: 'Inhalt' } } }));
    const connection = ['--url', new URL(server.baseUrl).origin, '--key', owner.apiKey, '--project', projectId, '--format', 'json', '--in', file];
    const pushed = await runCli(server.databaseUrl, ['push', ...connection, '--mark-reviewed']);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain('translations  1 new, 0 updated, 1 unchanged, 2 reviewed');
    expect((await entryOf(projectId, 'title')).translations.de).toMatchObject({ state: 'reviewed', reviewedBy: { id: owner.id } });
    // without the flag nothing is asked, nothing said
    const again = await runCli(server.databaseUrl, ['push', ...connection]);
    expect(again.stdout).toContain('translations  0 new, 0 updated, 2 unchanged\n');
  });

  describe('without markReviewed', () => {
    it('a replaced reviewed translation becomes translated and keeps its review (reviewedText, reviewedBy)', async () => {
      const projectId = await projectWith();
      await importInto(projectId, { de: { home: { title: 'Start' } } }, '&markReviewed=true');
      await addMember(server, projectId, other.id, 'translator');
      const replaced = await importInto(projectId, { de: { home: { title: 'Beginn' } } }, '&mode=overwrite', other.apiKey);
      expect(replaced.status, replaced.text).toBe(200);
      expect(replaced.body.translations).toEqual({ created: 0, updated: 1, unchanged: 0 });
      expect((await entryOf(projectId, 'title')).translations.de).toMatchObject({
        translation: 'Beginn',
        translatorId: other.id,
        state: 'translated',
        outdated: false,
        reviewedText: 'Start',
        reviewedBy: { id: owner.id },
      });
    });

    it('a base term it changes outdates the translations it leaves, not those it writes', async () => {
      const projectId = await projectWith({ de: { title: 'Start' }, fr: { title: 'Accueil' } });
      const imported = await importInto(projectId, { en: { home: { title: 'Homepage' } }, de: { home: { title: 'Startseite' } } }, '&mode=overwrite');
      expect(imported.status, imported.text).toBe(200);
      expect(imported.body.entries).toEqual({ created: 0, updated: 1, unchanged: 0 });
      const title = await entryOf(projectId, 'title');
      expect(title.translations.de).toMatchObject({ translation: 'Startseite', state: 'translated', outdated: false });
      expect(title.translations.fr).toMatchObject({ translation: 'Accueil', outdated: true });
      // a new translation of an entry whose base term it changes is written against the new one
      const again = await importInto(projectId, { en: { home: { body: 'Text' } }, de: { home: { body: 'Inhalt' } } }, '&mode=overwrite');
      expect(again.body.entries.updated).toBe(1);
      expect((await entryOf(projectId, 'body')).translations.de).toMatchObject({ translation: 'Inhalt', outdated: false });
    });
  });

  describe('history', () => {
    it("records a replaced reviewed translation's exact before; reverting the import restores its text and review", async () => {
      const projectId = await projectWith();
      await importInto(projectId, { de: { home: { title: 'Start' } } }, '&markReviewed=true');
      const reviewed = (await entryOf(projectId, 'title')).translations.de;
      const replaced = await importInto(projectId, { de: { home: { title: 'Beginn' } } }, '&mode=overwrite');
      const changes = await changesOf(projectId, replaced.body.changeSetId);
      expect(changes['title/de']).toMatchObject({
        op: 'update',
        before: { text: 'Start', state: 'reviewed', outdated: false, review: { text: 'Start', userId: owner.id, at: reviewed.reviewedAt } },
        after: { text: 'Beginn', state: 'translated', outdated: false, review: { text: 'Start', userId: owner.id } },
      });
      const reverted = await server.api('POST', `/change-sets/${replaced.body.changeSetId}/revert`, { key: owner.apiKey });
      expect(reverted.status, reverted.text).toBe(200);
      expect((await entryOf(projectId, 'title')).translations.de).toMatchObject({
        translation: 'Start',
        state: 'reviewed',
        outdated: false,
        reviewedText: null,
        reviewedBy: { id: owner.id },
        reviewedAt: reviewed.reviewedAt,
      });
    });

    it('reverting an import that changed a base term puts the translations it rewrote back as they were, not outdated', async () => {
      const projectId = await projectWith();
      await importInto(projectId, { de: { home: { title: 'Start' } }, fr: { home: { title: 'Accueil' } } }, '&markReviewed=true');
      const imported = await importInto(projectId, { en: { home: { title: 'Homepage' } }, de: { home: { title: 'Startseite' } } }, '&mode=overwrite');
      const changes = await changesOf(projectId, imported.body.changeSetId);
      expect(changes['title/de']).toMatchObject({ before: { text: 'Start', state: 'reviewed', outdated: false }, after: { text: 'Startseite', state: 'translated', outdated: false } });
      const reverted = await server.api('POST', `/change-sets/${imported.body.changeSetId}/revert`, { key: owner.apiKey });
      expect(reverted.status, reverted.text).toBe(200);
      const title = await entryOf(projectId, 'title');
      expect(title.baseTerm).toBe('Home');
      expect(title.translations.de).toMatchObject({ translation: 'Start', state: 'reviewed', outdated: false, reviewedBy: { id: owner.id } });
      // fr, which the import did not touch, saw two base term edits (a revert of one is one too)
      expect(title.translations.fr).toMatchObject({ translation: 'Accueil', state: 'reviewed', outdated: true });
    });

    it('records the reviews of a markReviewed import (an unchanged text: an update of its state); its revert puts the states back', async () => {
      const projectId = await projectWith({ de: { title: 'Start' }, fr: { title: 'Accueil' } });
      const imported = await importInto(projectId, { de: { home: { title: 'Beginn', body: 'Inhalt' } }, fr: { home: { title: 'Accueil' } } }, '&mode=overwrite&markReviewed=true');
      expect(imported.body.translations.reviewed).toBe(3);
      const changes = await changesOf(projectId, imported.body.changeSetId);
      const review = { userId: owner.id, revision: 0 };
      expect(changes['title/fr']).toMatchObject({ op: 'update', before: { text: 'Accueil', state: 'translated', outdated: false }, after: { text: 'Accueil', state: 'reviewed', review: { text: 'Accueil', ...review } } });
      expect(changes['title/fr'].before.review).toBeUndefined();
      expect(changes['title/de']).toMatchObject({ op: 'update', before: { text: 'Start', state: 'translated' }, after: { text: 'Beginn', state: 'reviewed', review: { text: 'Beginn', ...review } } });
      expect(changes['body/de']).toMatchObject({ op: 'create', before: null, after: { text: 'Inhalt', state: 'reviewed', review: { text: 'Inhalt', ...review } } });
      const reverted = await server.api('POST', `/change-sets/${imported.body.changeSetId}/revert`, { key: owner.apiKey });
      expect(reverted.status, reverted.text).toBe(200);
      const title = await entryOf(projectId, 'title');
      expect(title.translations.de).toMatchObject({ translation: 'Start', state: 'translated', reviewedBy: null, reviewedText: null });
      expect(title.translations.fr).toMatchObject({ translation: 'Accueil', state: 'translated', reviewedBy: null, reviewedAt: null });
      expect((await entryOf(projectId, 'body')).translations.de).toBeUndefined();
    });
  });

  // whatever the tests wrote, the store keeps its invariants (review states among them: tolk doctor's check)
  it('leaves a store whose invariants hold', async () => {
    expect(await checkIntegrity(server.store.db)).toEqual([]);
  });
});
