/**
 * Migration 006 turns stored texts from before the message rule that do not parse into their quoted
 * literal: they render exactly as before, valid messages are left alone, and the ETag changes.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectStore } from '../../src/domain/integrity/inspect-store.js';
import * as migration from '../../src/store/migrations/006-texts-as-messages.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

const OLD_TEXTS = ['Braces { lone and } lone', 'Hello {{name}}', "it's {broken", '{count, plural, one {# item}}', 'x'.repeat(3) + '{d, date, short}'];
const render = (message: string) => new IntlMessageFormat(message, 'en', undefined, { ignoreTag: true }).format();

describe.each(DIALECTS)('migration 006 on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server.close());

  it('quotes exactly the texts that do not parse, keeps their rendering, and bumps the content version', async () => {
    const owner = await server.user();
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    const valid = await createEntry(server, owner.apiKey, group.id, 'valid', 'Hello {name}, it\'s {count, plural, one {# item} other {# items}}');
    await setTranslation(server, owner.apiKey, valid.id, 'de', 'Hallo {name}');
    const old = await createEntry(server, owner.apiKey, group.id, 'oldText', 'placeholder');
    // Texts written before the rule: straight into the store, as an older tolk would have.
    const db = server.store.db;
    for (const [index, text] of OLD_TEXTS.entries()) {
      const entry = index === 0 ? old : await createEntry(server, owner.apiKey, group.id, `oldText${index}`);
      await db.updateTable('entries').set({ base_term: text, base_term_key: text.toLowerCase() }).where('id', '=', entry.id).execute();
      await setTranslation(server, owner.apiKey, entry.id, 'de', 'Deutsch');
      await db.updateTable('translations').set({ translation: `DE ${text}` }).where('entry_id', '=', entry.id).execute();
    }
    const before = await db.selectFrom('projects').select('content_version').where('id', '=', project.id).executeTakeFirstOrThrow();

    await migration.up(db as unknown as Kysely<unknown>);

    const entries = await db.selectFrom('entries').select(['id', 'base_term', 'base_term_key']).where('project_id', '=', project.id).execute();
    const byText = new Map(entries.map((entry) => [entry.id, entry]));
    expect(byText.get(valid.id)!.base_term).toBe('Hello {name}, it\'s {count, plural, one {# item} other {# items}}');
    const migrated = entries.filter((entry) => entry.id !== valid.id).map((entry) => entry.base_term);
    expect(migrated.map(render).sort()).toEqual([...OLD_TEXTS].sort());
    for (const entry of entries) expect(entry.base_term_key).toBe(entry.base_term.toLowerCase());
    const translations = await db.selectFrom('translations').innerJoin('entries', 'entries.id', 'translations.entry_id').select(['translations.entry_id', 'translations.translation']).where('entries.project_id', '=', project.id).execute();
    expect(translations.find((row) => row.entry_id === valid.id)!.translation).toBe('Hallo {name}');
    const migratedTranslations = translations.filter((row) => row.entry_id !== valid.id).map((row) => render(row.translation));
    expect(migratedTranslations.sort()).toEqual(OLD_TEXTS.map((text) => `DE ${text}`).sort());
    const after = await db.selectFrom('projects').select('content_version').where('id', '=', project.id).executeTakeFirstOrThrow();
    expect(Number(after.content_version)).toBe(Number(before.content_version) + 1);

    // A second run finds nothing left to quote.
    await migration.up(db as unknown as Kysely<unknown>);
    const again = await db.selectFrom('projects').select('content_version').where('id', '=', project.id).executeTakeFirstOrThrow();
    expect(Number(again.content_version)).toBe(Number(after.content_version));
    expect((await inspectStore(db)).problems).toEqual([]);
  });
});
