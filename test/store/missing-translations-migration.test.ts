/**
 * Migration 004 fills the missing-translation rows of a store that already holds content: every
 * (entry, translation language) pair without a translation, and nothing else.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectStore } from '../../src/domain/integrity/inspect-store.js';
import * as migration from '../../src/store/migrations/004-missing-translations.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe.each(DIALECTS)('migration 004 on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server.close());

  it('backfills exactly the untranslated pairs of existing entries', async () => {
    const owner = await server.user();
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const both = await createEntry(server, owner.apiKey, group.id, 'both');
    const half = await createEntry(server, owner.apiKey, group.id, 'half');
    await createEntry(server, owner.apiKey, group.id, 'none');
    await setTranslation(server, owner.apiKey, both.id, 'de', 'Beide');
    await setTranslation(server, owner.apiKey, both.id, 'pt-BR', 'Ambos');
    await setTranslation(server, owner.apiKey, half.id, 'de', 'Halb');

    // Back to the store before 004 (its rows gone), then forward again over the existing content.
    const untyped = server.store.db as unknown as Kysely<unknown>;
    await migration.down(untyped);
    await migration.up(untyped);

    const rows = await server.store.db.selectFrom('missing_translations').select(['entry_id', 'language']).where('project_id', '=', project.id).execute();
    const pairs = rows.map((row) => `${row.entry_id === half.id ? 'half' : row.entry_id === both.id ? 'both' : 'none'}:${row.language}`).sort();
    expect(pairs).toEqual(['half:pt-BR', 'none:de', 'none:pt-BR']);
    expect((await inspectStore(server.store.db)).problems).toEqual([]);
  });
});
