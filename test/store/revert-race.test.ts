/**
 * A revert racing saves on PostgreSQL (separate pool connections, issue 32): 20 saves, half with
 * If-Match, start together with the revert of the import that wrote their cells. The revert plans
 * under the project's lock, so no save is lost silently: every save answered 200 is the final text
 * (it landed after the revert, or the revert saw it and listed it as a conflict), and a save refused
 * with 412 is one whose If-Match the revert had made stale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const ENTRIES = 20;

describe.skipIf(!TEST_DATABASE_URL)('a revert racing saves on postgres', () => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer('postgres');
    owner = await server.user();
  });
  afterAll(() => server?.close());

  it.each([0, 1, 2])('no save is lost (saves up to 3 × %i ms after the revert)', async (spread) => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const names = Array.from({ length: ENTRIES }, (_, i) => `entry${String.fromCharCode(97 + i)}`);
    const ids: string[] = [];
    for (const name of names) ids.push((await createEntry(server, owner.apiKey, group.id, name, `Text ${name}`)).id);
    const body = { en: { main: Object.fromEntries(names.map((name) => [name, `Text ${name}`])) }, de: { main: Object.fromEntries(names.map((name) => [name, `Importiert ${name}`])) } };
    const imported = await server.api('POST', `/projects/${project.id}/import?format=json&mode=overwrite`, { key: owner.apiKey, body });
    expect(imported.status, imported.text).toBe(200);
    const etags = await Promise.all(ids.map(async (id) => (await server.api('GET', `/entries/${id}`, { key: owner.apiKey })).body.translations.find((t: any) => t.language === 'de').updatedAt));

    // The revert first, the saves spread over the time it takes: some land before its lock, some after.
    const revert = server.api('POST', `/change-sets/${imported.body.changeSetId}/revert?onConflict=skip`, { key: owner.apiKey });
    const saves = ids.map(async (id, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i % 4) * spread));
      return server.api('PUT', `/entries/${id}/translations`, {
        key: owner.apiKey,
        body: { language: 'de', translation: `Gespeichert ${i}` },
        headers: i % 2 === 0 ? { 'if-match': `"${etags[i]}"` } : {},
      });
    });
    const [reverted, ...saved] = await Promise.all([revert, ...saves]);
    expect(reverted.status, reverted.text).toBe(200);
    const conflicts = new Set((reverted.body.conflicts as any[]).map((c) => c.key));

    for (let i = 0; i < ENTRIES; i++) {
      const final = (await server.api('GET', `/entries/${ids[i]}`, { key: owner.apiKey })).body.translations?.find((t: any) => t.language === 'de')?.translation;
      const save = saved[i]!;
      if (save.status === 200) {
        expect(final, `save ${i} answered 200`).toBe(`Gespeichert ${i}`);
      } else {
        // only an If-Match save can be refused, and only because the revert changed the text first
        expect(save.status, save.text).toBe(412);
        expect(i % 2).toBe(0);
        // the revert came first and took the imported text away (the cell had none before the import)
        expect(final).toBeUndefined();
      }
      if (conflicts.has(`main.${names[i]}`)) expect(final).toBe(`Gespeichert ${i}`);
    }
  });
});
