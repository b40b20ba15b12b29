/**
 * The history's reads range over migration 011's indexes, never over the whole change log: one
 * entry's page among a project's thousands of changes reads that entry's index (changes_entry), a
 * group's changes_group, a set's (its version) and the project's changes_project_version; the change sets'
 * list change_sets_version (SQLite: the table's own key), and its revertedBy change_sets_revert_of. Read from the stores' own query
 * plans (PostgreSQL with sequential scans priced out, so that any usable index shows).
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChangeSet, type ChangeRecord } from '../../src/store/content-writes/change-log.js';
import { changeSetStatements, changeStatements, listChangeSets, type ChangeFilter } from '../../src/store/repositories/history.js';
import type { Db } from '../../src/store/schema.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const ENTRIES = 3;
const VERSIONS = 3_000;

describe.each(DIALECTS)('the history reads on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let projectId: string;
  let setIds: string[];

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
    projectId = (await createProject(server, owner.apiKey)).id;
    setIds = [];
    // One translation change a version, round the entries: 1,000 changes of each entry.
    await server.store.db.transaction().execute(async (trx) => {
      for (let version = 1; version <= VERSIONS; version += 1) {
        const entry = version % ENTRIES;
        const change: ChangeRecord = { target: 'translation', op: 'update', groupId: `group-${entry % 2}`, entryId: `entry-${entry}`, language: 'de', key: `g.e${entry}`, before: { text: 'a' }, after: { text: 'b' } };
        const id = `set-${version}`;
        setIds.push(id);
        await recordChangeSet(trx, { id, projectId, version, source: 'api', userId: owner.id, apiKeyId: null, createdAt: new Date().toISOString(), revertOf: version > 1 && version % 100 === 0 ? `set-${version - 1}` : null }, [change]);
      }
    });
    if (dialect === 'postgres') await sql`analyze changes; analyze change_sets`.execute(server.store.db);
  });
  afterAll(() => server?.close());

  /** The statement's plan, one line a step. */
  async function planOf(query: { compile(): CompiledQuery }): Promise<string> {
    const compiled = query.compile();
    const db = server.store.db;
    if (dialect === 'sqlite') {
      const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
      return rows.map((row) => row.detail).join('\n');
    }
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  const page = (filter: Partial<ChangeFilter>) => changeStatements(server.store.db as Db, projectId, { limit: 100, offset: 0, ...filter });
  const reads = (index: string) => (dialect === 'sqlite' ? new RegExp(`\\b(SEARCH|SCAN) c USING (COVERING )?INDEX ${index}\\b`) : new RegExp(`Index (Only )?Scan( Backward)? using ${index} on changes c|Bitmap Index Scan on ${index}\\b`));
  const scansChanges = dialect === 'sqlite' ? /\bSCAN c\b(?! USING)/ : /Seq Scan on changes/;

  it.each([
    ['an entry', { entryId: 'entry-1' }, 'changes_entry'],
    ['an entry, as a feed', { entryId: 'entry-1', afterVersion: 10 }, 'changes_entry'],
    ['a group', { groupId: 'group-1' }, 'changes_group'],
    ['a change set', { changeSetId: 'set-7' }, 'changes_project_version'],
    ['the project', {}, 'changes_project_version'],
    ['the project, as a feed', { afterVersion: 2_990 }, 'changes_project_version'],
  ] as const)("reads %s's changes through its index, page and count", async (_what, filter, index) => {
    const statements = page(filter);
    for (const statement of [statements.page, statements.count]) {
      const plan = await planOf(statement);
      expect(plan, plan).toMatch(reads(index));
      expect(plan, plan).not.toMatch(scansChanges);
    }
  });

  it("answers one entry's newest page of its 1,000 changes, and a feed after a version", async () => {
    const [rows, count] = await Promise.all([page({ entryId: 'entry-1' }).page.execute(), page({ entryId: 'entry-1' }).count.executeTakeFirstOrThrow()]);
    expect(Number(count.total)).toBe(VERSIONS / ENTRIES);
    expect(rows.map((row) => row.version)).toEqual(Array.from({ length: 100 }, (_, i) => VERSIONS - 2 - i * ENTRIES));
    const feed = await page({ entryId: 'entry-1', afterVersion: 2_900, limit: 5 }).page.execute();
    expect(feed.map((row) => row.version)).toEqual([2_902, 2_905, 2_908, 2_911, 2_914]);
  });

  it('lists change sets through change_sets_version, their revertedBy through change_sets_revert_of', async () => {
    const found = await listChangeSets(server.store.db, projectId, { limit: 3, offset: 0, afterVersion: 97 });
    expect(found.rows.map((row) => [row.version, row.revertOf, row.revertedBy])).toEqual([
      [98, null, null],
      [99, null, 'set-100'],
      [100, 'set-99', null],
    ]);
    expect(found.total).toBe(VERSIONS - 97);
    const statements = changeSetStatements(server.store.db, projectId, { limit: 100, offset: 0 });
    for (const statement of [statements.page, statements.count]) {
      const plan = await planOf(statement);
      expect(plan, plan).toMatch(dialect === 'sqlite' ? /\b(SEARCH|SCAN) cs USING PRIMARY KEY\b/ : /using change_sets_version on change_sets cs|Bitmap Index Scan on change_sets_version/);
      expect(plan, plan).not.toMatch(dialect === 'sqlite' ? /\bSCAN (cs|r)\b(?! USING)/ : /Seq Scan on change_sets/);
    }
    const plan = await planOf(statements.page);
    expect(plan, plan).toMatch(dialect === 'sqlite' ? /SEARCH r USING INDEX change_sets_revert_of/ : /change_sets_revert_of/);
  });
});
