/**
 * Outdated is derived, never fanned out (CONTRACT "Review", migration 016): a base term edit of an
 * entry with translations in 200 languages runs exactly the statements of an edit of an entry with
 * none, and of a minor edit (which marks nothing), and yet all 200 show `outdated` after it. The
 * statements are counted with a Kysely plugin on the store's connection (every executed query passes
 * its transformResult, prepared ones too); the edit runs through the domain, in process.
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/domain/access/project-access.js';
import { updateEntry } from '../../src/domain/entries/write-entries.js';
import { listLocales } from '../../src/locales/locale-catalog.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const LANGUAGES = 200;

class StatementCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count += 1;
    return args.result;
  }
}

describe.each(DIALECTS)('a base term edit on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let principal: Principal;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
    principal = { userId: owner.id, authenticatedBy: 'apiKey' };
  });
  afterAll(() => server?.close());

  /** The statements one domain edit of the entry runs. */
  async function statementsOf(entryId: string, changes: Parameters<typeof updateEntry>[3]): Promise<number> {
    const counter = new StatementCounter();
    await updateEntry(server.store.db.withPlugin(counter), principal, entryId, changes);
    return counter.count;
  }

  it('is as many statements with 200 translations as with none, marks all 200 outdated, and a minor edit marks none', async () => {
    const tags = listLocales().flatMap((locale) => [locale.code, ...(locale.regions ?? []).map((region) => region.code)]);
    const languages = tags.filter((tag) => tag !== 'en').slice(0, LANGUAGES);
    const { group } = await createProjectWithGroup(server, owner.apiKey, 'main', { translationLanguages: languages });
    const bare = await createEntry(server, owner.apiKey, group.id, 'bareEntry', 'Bare');
    const full = await createEntry(server, owner.apiKey, group.id, 'fullEntry', 'Full');
    for (const language of languages) await setTranslation(server, owner.apiKey, full.id, language, `Full in ${language}`);
    const outdated = async () =>
      (await server.api('GET', `/entries/${full.id}`, { key: owner.apiKey })).body.translations.filter((t: { outdated: boolean }) => t.outdated).length;

    const minor = await statementsOf(full.id, { baseTerm: 'Full, typo fixed', minorEdit: true });
    expect(await outdated()).toBe(0);
    const withNone = await statementsOf(bare.id, { baseTerm: 'Bare, changed' });
    const withAll = await statementsOf(full.id, { baseTerm: 'Full, changed' });
    expect(withAll).toBe(withNone);
    expect(withAll).toBe(minor);
    expect(withAll).toBeGreaterThan(0);
    expect(await outdated()).toBe(LANGUAGES);
  });
});
