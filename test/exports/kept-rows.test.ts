/**
 * An export keeps the rows it read of a small project and, after writes that changed only some
 * entries' texts, reads only those entries again (src/exports/kept-rows.ts, caught up from the change
 * log of migration 011). Every export must still hold exactly what the store holds: checked against the
 * stored rows themselves after every step of a random sequence of every kind of write, on both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Tree = { [name: string]: Tree | string };

/** A small seeded random number generator (mulberry32): the same sequence on every run. */
function randomOf(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

describe.each(DIALECTS)('exports after writes, from kept rows, on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let projectId: string;
  const languages = ['en', 'de', 'fr'];

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await server.api(method, path, { key, body });
    expect(response.status, `${method} ${path}: ${response.text.slice(0, 300)}`).toBeLessThan(300);
    return response.body;
  };
  const exportJson = async () => {
    const response = await server.api('GET', `/projects/${projectId}/export/json`, { key });
    expect(response.status).toBe(200);
    return response.body as Record<string, Tree>;
  };

  /** What the json export must hold, from the stored rows (a missing translation is the base term). */
  async function stored(): Promise<Record<string, Tree>> {
    const db = server.store.db;
    const groups = await db.selectFrom('groups').select(['id', 'parent_id', 'technical_name']).where('project_id', '=', projectId).execute();
    const entries = await db.selectFrom('entries').select(['id', 'group_id', 'technical_name', 'base_term']).where('project_id', '=', projectId).execute();
    const translations = await db
      .selectFrom('translations')
      .innerJoin('entries', 'entries.id', 'translations.entry_id')
      .select(['translations.entry_id', 'translations.language', 'translations.translation'])
      .where('entries.project_id', '=', projectId)
      .execute();
    const byId = new Map(groups.map((group) => [group.id, group]));
    const pathOf = (groupId: string | null): string[] => {
      const group = groupId === null ? undefined : byId.get(groupId);
      return group ? [...pathOf(group.parent_id), group.technical_name].filter((name) => name !== '') : [];
    };
    const result: Record<string, Tree> = {};
    for (const language of languages) {
      const tree: Tree = {};
      const nodeAt = (path: string[]) => path.reduce((node, name) => (node[name] ??= {}) as Tree, tree);
      for (const group of groups) nodeAt(pathOf(group.id));
      for (const entry of entries) {
        const translation = translations.find((t) => t.entry_id === entry.id && t.language === language);
        nodeAt(pathOf(entry.group_id))[entry.technical_name] = language === 'en' ? entry.base_term : (translation?.translation ?? entry.base_term);
      }
      result[language] = tree;
    }
    return result;
  }

  beforeAll(async () => {
    server = await startServer(dialect);
    key = (await server.user({ dailyQuota: 100_000 })).apiKey;
    projectId = (await createProject(server, key, { baseLanguage: 'en', translationLanguages: ['de', 'fr'] })).id;
    const entriesOf = (prefix: string) => Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`${prefix}Entry${i}`, `${prefix} text ${i}`]));
    const tree = { common: { ...entriesOf('common'), nested: entriesOf('nested') }, settings: entriesOf('settings') };
    const body = JSON.stringify({ en: tree, de: { common: { commonEntry0: 'Hallo' } } });
    const imported = await server.api('POST', `/projects/${projectId}/import?format=json`, { key, rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(imported.status, imported.text.slice(0, 300)).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('holds what the store holds after every kind of write, in a random order', async () => {
    const random = randomOf(dialect === 'sqlite' ? 17 : 29);
    const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
    let counter = 0;
    const entryIds = async () => (await server.store.db.selectFrom('entries').select('id').where('project_id', '=', projectId).execute()).map((row) => row.id);
    const groupIds = async () =>
      (await server.store.db.selectFrom('groups').select('id').where('project_id', '=', projectId).where('technical_name', '!=', '').execute()).map((row) => row.id);
    const writes: Array<() => Promise<unknown>> = [
      async () => call('PUT', `/entries/${pick(await entryIds())}/translations`, { language: pick(['de', 'fr']), translation: `Übersetzung ${(counter += 1)}` }),
      async () => call('PUT', `/entries/${pick(await entryIds())}/translations`, { language: pick(['de', 'fr']), translation: `Zweite {count, plural, one {# Sache} other {# Sachen}} ${(counter += 1)}` }),
      async () => call('DELETE', `/entries/${pick(await entryIds())}/translations`, { language: pick(['de', 'fr']) }),
      async () => call('PATCH', `/entries/${pick(await entryIds())}`, { baseTerm: `Base ${(counter += 1)}` }),
      async () => call('PATCH', `/entries/${pick(await entryIds())}`, { contextInfo: `Context ${(counter += 1)}` }),
      async () => call('PATCH', `/entries/${pick(await entryIds())}`, { technicalName: `renamed${(counter += 1)}` }),
      async () => call('POST', `/groups/${pick(await groupIds())}/entries`, { technicalName: `created${(counter += 1)}`, baseTerm: `New ${counter}` }),
      async () => {
        const ids = await entryIds();
        if (ids.length > 10) await call('DELETE', `/entries/${pick(ids)}`);
      },
      async () => call('PATCH', `/groups/${pick(await groupIds())}`, { technicalName: `group${(counter += 1)}` }),
      async () => call('POST', `/projects/${projectId}/groups`, { technicalName: `extra${(counter += 1)}`, displayName: 'Extra' }),
    ];
    // Texts-only writes are most of what happens between two exports; the others come now and then.
    const weights = [5, 2, 2, 2, 1, 1, 1, 1, 1, 1];
    const weighted = writes.flatMap((write, index) => Array.from({ length: weights[index]! }, () => write));
    expect(await exportJson()).toEqual(await stored());
    for (let step = 0; step < 60; step += 1) {
      const count = 1 + random(3);
      for (let i = 0; i < count; i += 1) await pick(weighted)();
      expect(await exportJson(), `after step ${step}`).toEqual(await stored());
    }
  });

  it('reads in full again when more texts changed than the log keeps', async () => {
    const [once, often] = await server.store.db.selectFrom('entries').select('id').where('project_id', '=', projectId).limit(2).execute();
    await exportJson();
    // The first change falls out of the log: only a full read shows it.
    await call('PUT', `/entries/${once!.id}/translations`, { language: 'fr', translation: 'Changed once, long ago' });
    for (let i = 0; i < 300; i += 1) await call('PUT', `/entries/${often!.id}/translations`, { language: 'fr', translation: `Version ${i}` });
    const exported = await exportJson();
    expect(JSON.stringify(exported.fr)).toContain('Changed once, long ago');
    expect(exported).toEqual(await stored());
  });

  it('reads only the entries the log names after a texts-only write (the kept rows are used)', async () => {
    const [first, second] = await server.store.db.selectFrom('entries').select(['id', 'base_term']).where('project_id', '=', projectId).orderBy('id').limit(2).execute();
    const before = await exportJson();
    // A change made behind the service's back (no version, no log) stays unseen while only logged
    // entries are read again; a full read would show it. This proves the kept rows are used.
    await server.store.db.updateTable('entries').set({ base_term: 'Changed behind the back' }).where('id', '=', first!.id).execute();
    await call('PATCH', `/entries/${second!.id}`, { baseTerm: 'Changed through the API' });
    const after = await exportJson();
    expect(JSON.stringify(after.en)).not.toContain('Changed behind the back');
    expect(JSON.stringify(after.en)).toContain('Changed through the API');
    expect(JSON.stringify(before.en)).not.toContain('Changed through the API');
    // A write that is not texts-only (a rename) makes the next export read in full: then it shows.
    await call('PATCH', `/entries/${second!.id}`, { technicalName: 'renamedAtLast' });
    expect(JSON.stringify((await exportJson()).en)).toContain('Changed behind the back');
    await server.store.db.updateTable('entries').set({ base_term: first!.base_term }).where('id', '=', first!.id).execute();
  });

  it('reads in full when a version is missing from the change log (pruned by retention, or a write it does not know)', async () => {
    const [first, second] = await server.store.db.selectFrom('entries').select(['id', 'base_term']).where('project_id', '=', projectId).orderBy('id').limit(2).execute();
    await exportJson();
    await server.store.db.updateTable('entries').set({ base_term: 'Changed behind the back again' }).where('id', '=', first!.id).execute();
    await call('PATCH', `/entries/${second!.id}`, { baseTerm: 'Logged, then forgotten' });
    // the write's change set goes, as retention would take it: the log no longer accounts for that version
    const project = await server.store.db.selectFrom('projects').select('content_version').where('id', '=', projectId).executeTakeFirstOrThrow();
    await server.store.db.deleteFrom('change_sets').where('project_id', '=', projectId).where('version', '=', Number(project.content_version)).execute();
    const after = await exportJson();
    expect(JSON.stringify(after.en)).toContain('Changed behind the back again');
    expect(after).toEqual(await stored());
    await server.store.db.updateTable('entries').set({ base_term: first!.base_term }).where('id', '=', first!.id).execute();
  });
});
