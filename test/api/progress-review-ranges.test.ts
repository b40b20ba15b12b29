/**
 * Progress's review counts are kept per range of 2,000 entries and, after writes that changed only some
 * entries, counted again only where those entries are (domain/projects/project-progress.ts). Here a
 * project of 4,500 entries (three ranges on SQLite) goes through reviews, saves, base term edits, a
 * confirm, an unreview, a bulk review across the ranges, an entry created and one deleted; after each,
 * the progress the API answers equals a count of the whole project made afresh. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeBetween } from '../../src/store/repositories/entry-ranges.js';
import { countReviewStatesIn, sumCounts } from '../../src/store/repositories/unreviewed.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const ENTRIES = 4_500;

describe.each(DIALECTS)('progress review counts by range on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  it('answers what a fresh count of the whole project says, after every kind of write', async () => {
    const project = await createProject(server, owner.apiKey, { translationLanguages: ['de', 'fr'] });
    const names = Array.from({ length: ENTRIES }, (_, i) => `term${i}`);
    const imported = await server.api('POST', `/projects/${project.id}/import?format=json`, {
      key: owner.apiKey,
      body: {
        en: { all: Object.fromEntries(names.map((name) => [name, `Text ${name}`])) },
        de: { all: Object.fromEntries(names.map((name) => [name, `Text ${name} (de)`])) },
      },
    });
    expect(imported.status, imported.text).toBe(200);
    const group = (await server.api('GET', `/projects/${project.id}/groups`, { key: owner.apiKey })).body.result[0];
    const ids: string[] = [];
    for (let offset = 0; offset < ENTRIES; offset += 100) {
      const page = await server.api('GET', `/groups/${group.id}/entries?limit=100&offset=${offset}`, { key: owner.apiKey });
      ids.push(...page.body.result.map((entry: { id: string }) => entry.id));
    }
    // entries made in one import share their created_at: the ranges' edges fall between ids of one millisecond
    const pick = (i: number) => ids[i]!;
    const call = async (method: string, path: string, body: unknown) => {
      const response = await server.api(method, path, { key: owner.apiKey, body });
      expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
      return response;
    };
    const agrees = async (step: string) => {
      const progress = (await server.api('GET', `/projects/${project.id}/progress`, { key: owner.apiKey })).body;
      // the whole project in one count: no range involved
      const whole = rangeBetween(null, null);
      const fresh = sumCounts([{ range: whole, counts: await countReviewStatesIn(server.store.db, project.id, whole) }], ['de', 'fr']);
      const shown = Object.fromEntries(progress.languages.map((l: any) => [l.language, { reviewed: l.reviewed, outdated: l.outdated }]));
      expect(shown, step).toEqual(Object.fromEntries(fresh));
      return shown;
    };

    expect(await agrees('after the import')).toEqual({ de: { reviewed: 0, outdated: 0 }, fr: { reviewed: 0, outdated: 0 } });
    await call('POST', `/projects/${project.id}/reviews`, { language: 'de', entryIds: [0, 1, 1999, 2000, 2001, 3999, 4000, 4499].map(pick) });
    expect((await agrees('a bulk review across the ranges')).de).toEqual({ reviewed: 8, outdated: 0 });
    await call('POST', `/entries/${pick(2500)}/translations/review`, { language: 'de' });
    await agrees('one review in the middle range');
    await call('PATCH', `/entries/${pick(2000)}`, { baseTerm: 'A new base' });
    expect((await agrees('a base term edit')).de).toEqual({ reviewed: 8, outdated: 1 });
    await call('PATCH', `/entries/${pick(4000)}`, { baseTerm: 'A typo fixed', minorEdit: true });
    await agrees('a minor edit');
    await call('POST', `/entries/${pick(2000)}/translations/confirm`, { language: 'de' });
    await agrees('a confirm');
    await call('PUT', `/entries/${pick(4499)}/translations`, { language: 'de', translation: 'Changed' });
    await call('PUT', `/entries/${pick(4498)}/translations`, { language: 'fr', translation: 'Changé' });
    await call('POST', `/entries/${pick(4498)}/translations/review`, { language: 'fr' });
    expect((await agrees('two saves and a review in the last range')).fr).toEqual({ reviewed: 1, outdated: 0 });
    await call('DELETE', `/entries/${pick(0)}/translations/review`, { language: 'de' });
    await agrees('an unreview in the first range');
    await call('DELETE', `/entries/${pick(1)}`, undefined);
    await agrees('an entry deleted');
    await call('POST', `/groups/${group.id}/entries`, { technicalName: 'zzzLast', baseTerm: 'Last' });
    await call('PATCH', `/entries/${pick(1999)}`, { baseTerm: 'Another base' });
    expect((await agrees('an entry created, then a base term edit')).de).toEqual({ reviewed: 5, outdated: 1 });
  });
});
