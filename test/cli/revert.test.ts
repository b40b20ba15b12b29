/**
 * `tolk revert` (CONTRACT "History", CLI) against a real server, in this process: an import undone
 * after a dry run, a conflict stopping it (exit 1, nothing written) and --skip-conflicts reverting the
 * rest, the redo line, --json as the server's answer, and a missing --change-set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRevertOptions, revert, type RevertOptions } from '../../src/cli/history/revert.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

describe.each(DIALECTS)('tolk revert on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  const options = (changeSet: string, more: Partial<RevertOptions> = {}): RevertOptions => ({
    url: new URL(server.baseUrl).origin,
    apiKey: owner.apiKey,
    changeSet,
    dryRun: false,
    skipConflicts: false,
    json: false,
    ...more,
  });
  const textOf = async (entryId: string) => (await server.api('GET', `/entries/${entryId}`, { key: owner.apiKey })).body.translations.find((t: any) => t.language === 'de')?.translation;

  it('a dry run, a conflict that stops it, --skip-conflicts, and the redo line', async () => {
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const first = await createEntry(server, owner.apiKey, group.id, 'first', 'First');
    const second = await createEntry(server, owner.apiKey, group.id, 'second', 'Second');
    await setTranslation(server, owner.apiKey, first.id, 'de', 'Erste');
    await setTranslation(server, owner.apiKey, second.id, 'de', 'Zweite');
    const imported = await server.api('POST', `/projects/${project.id}/import?format=json&mode=overwrite`, {
      key: owner.apiKey,
      body: { en: { main: { first: 'First', second: 'Second' } }, de: { main: { first: 'ERSTE', second: 'ZWEITE' } } },
    });
    const setId = imported.body.changeSetId as string;
    await setTranslation(server, owner.apiKey, second.id, 'de', 'Die Zweite');

    const dry = await revert(options(setId, { dryRun: true }));
    expect(dry.ok).toBe(true);
    expect(dry.text).toContain(`Dry run of reverting change set ${setId}: nothing written`);
    expect(dry.text).toContain('Would restore: 1 · Unchanged: 0 · Conflicts: 1');
    expect(dry.text).toMatch(/main\.second\/de: the change wrote "ZWEITE", now "Die Zweite" by .+ at 20\d\d-/);

    const stopped = await revert(options(setId));
    expect(stopped.ok).toBe(false);
    expect(stopped.text).toContain('Not reverted:');
    expect(stopped.text).toContain('main.second/de');
    expect(await textOf(first.id)).toBe('ERSTE');

    const rest = await revert(options(setId, { skipConflicts: true }));
    expect(rest.ok).toBe(true);
    expect(rest.text).toMatch(new RegExp(`^Reverted change set ${setId} as change set (\\w+) \\(version \\d+\\)`));
    expect(rest.text).toContain('Restored: 1 · Unchanged: 0 · Conflicts: 1');
    const redoId = /Redo with: tolk revert --change-set (\w+)/.exec(rest.text)?.[1];
    expect(redoId).toEqual(expect.any(String));
    expect(await textOf(first.id)).toBe('Erste');
    expect(await textOf(second.id)).toBe('Die Zweite');

    const redo = await revert(options(redoId!, { json: true }));
    expect(redo.ok).toBe(true);
    expect(JSON.parse(redo.text)).toMatchObject({ dryRun: false, restored: 1, changeSet: { revertOf: redoId } });
    expect(await textOf(first.id)).toBe('ERSTE');
  });

  it('an unknown change set is an error naming the code; a missing --change-set says how to find one', async () => {
    await expect(revert(options('no-such-set'))).rejects.toThrow(/ERR_NOT_FOUND/);
    expect(() => resolveRevertOptions({ url: 'http://localhost:1', key: 'k' }, {}, process.cwd())).toThrow(/--change-set/);
  });
});
