/**
 * The review reads (store/repositories/unreviewed.ts) walk SQLite's entries range by range
 * (entry-ranges.ts), so that other requests run in between: in ranges of a few entries, whose bounds
 * fall between entries made in the same millisecond, every page and every count is what the project's
 * translations say, one by one through the API. PostgreSQL reads in one range whatever the size: the
 * same answers.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { countReviewStates, listUnreviewed } from '../../src/store/repositories/unreviewed.js';
import type { Db } from '../../src/store/schema.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServerWithUsers, type TestServer, type TestUser } from '../helpers/server.js';

const ENTRIES = 13;
const LANGUAGES = ['de', 'pt-BR'];

describe.each(DIALECTS)('the review counts in ranges of entries on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let projectId: string;
  /** per language, the entries whose translation needs a review (in the list's order), and the reviewed current and outdated counts, as the API shows them one by one */
  const truth = new Map<string, { unreviewed: string[]; reviewed: number; outdated: number }>();

  beforeAll(async () => {
    ({ server, owner } = await startServerWithUsers(dialect));
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    projectId = project.id;
    const ids: string[] = [];
    // three entries a millisecond: ranges of 2 or 4 end between entries made at the same time
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (let index = 0; index < ENTRIES; index += 1) {
        vi.setSystemTime(new Date(Date.UTC(2032, 0, 1, 0, 0, 0, Math.floor(index / 3))));
        ids.push((await createEntry(server, owner.apiKey, group.id, `entry${index}`)).id);
      }
    } finally {
      vi.useRealTimers();
    }
    const act = async (method: string, path: string, body: unknown) => expect((await server.api(method, path, { key: owner.apiKey, body })).status).toBe(200);
    for (const [index, id] of ids.entries()) {
      if (index % 5 !== 4) await setTranslation(server, owner.apiKey, id, 'de', `Deutsch ${index}`);
      if (index % 2 === 0) await setTranslation(server, owner.apiKey, id, 'pt-BR', `Português ${index}`);
      if (index % 3 === 0 && index % 5 !== 4) await act('POST', `/entries/${id}/translations/review`, { language: 'de' });
      if (index % 4 === 0) await act('POST', `/entries/${id}/translations/review`, { language: 'pt-BR' });
      if (index % 5 === 0) await act('PATCH', `/entries/${id}`, { baseTerm: `Changed ${index}` });
    }
    const entries = await Promise.all(ids.map(async (id) => (await server.api('GET', `/entries/${id}`, { key: owner.apiKey })).body));
    // the list's order: oldest first, the id deciding between entries made at the same time
    entries.sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
    for (const language of LANGUAGES) {
      const shown = entries.flatMap((entry) => entry.translations.filter((t: any) => t.language === language).map((t: any) => ({ ...t, entryId: entry.id })));
      truth.set(language, {
        unreviewed: shown.filter((translation) => translation.state !== 'reviewed' || translation.outdated).map((translation) => translation.entryId),
        reviewed: shown.filter((translation) => translation.state === 'reviewed' && !translation.outdated).length,
        outdated: shown.filter((translation) => translation.outdated).length,
      });
    }
    // the data set has each kind of translation in both languages (else the comparisons below prove less)
    for (const { unreviewed, reviewed, outdated } of truth.values()) for (const count of [unreviewed.length, reviewed, outdated]) expect(count).toBeGreaterThan(1);
  });
  afterAll(() => server?.close());

  const db = () => server.store.db as Db;

  it.each([1, 2, 4, 5_000])('counts reviewed and outdated translations per language in ranges of %i entries as the translations say', async (entriesPerRange) => {
    const counts = await countReviewStates(db(), projectId, LANGUAGES, entriesPerRange);
    expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(LANGUAGES.map((language) => [language, { reviewed: truth.get(language)!.reviewed, outdated: truth.get(language)!.outdated }])));
  });

  it.each([1, 2, 4, 5_000])('pages the unreviewed list in ranges of %i entries as the translations say: every offset and limit, with its total counted or known', async (entriesPerRange) => {
    for (const language of LANGUAGES) {
      const expected = truth.get(language)!.unreviewed;
      for (let offset = 0; offset <= expected.length + 1; offset += 1) {
        for (const limit of [1, 2, 3, 100]) {
          const label = `${language} offset ${offset} limit ${limit}`;
          const page = await listUnreviewed(db(), projectId, language, limit, offset, undefined, entriesPerRange);
          expect(page.rows.map((row) => row.entry.id), label).toEqual(expected.slice(offset, offset + limit));
          expect(page.total, label).toBe(expected.length);
          for (const row of page.rows) expect(row.translation).toMatchObject({ entry_id: row.entry.id, language });
          // a total known already is taken as it is (the page's rows are the same)
          const known = await listUnreviewed(db(), projectId, language, limit, offset, 999, entriesPerRange);
          expect({ ids: known.rows.map((row) => row.entry.id), total: known.total }, label).toEqual({ ids: page.rows.map((row) => row.entry.id), total: 999 });
        }
      }
    }
  });
});
