/**
 * The history's reads range over migration 011's, 014's and 017's indexes, never over the whole change
 * log: one entry's page among a project's thousands of changes reads that entry's index in each place a
 * change is kept (changes_entry for the rows of `changes`; for the sets holding their one change, the
 * entry's rows of change_objects, each set then by its key, and the sets since the project's last
 * mapping by the key's range), a group's changes_group and change_objects likewise, a set's its version
 * or its id, and the project's changes_project_version and the sets' own key; the change sets' list
 * change_sets_version (SQLite: the table's own key), and its revertedBy change_sets_revert_of. Read
 * from the stores' own query plans (PostgreSQL with sequential scans priced out, so that any usable
 * index shows). The first 2,000 of the 3,000 versions are mapped, so that pages come from both halves.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChangeSet, type ChangeRecord } from '../../src/store/content-writes/change-log.js';
import { mapChangeObjects } from '../../src/store/content-writes/change-objects.js';
import { changeSetStatements, changeStatements, listChangeSets, pageOfChanges, type ChangeFilter } from '../../src/store/repositories/history.js';
import type { Db } from '../../src/store/schema.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const ENTRIES = 3;
const VERSIONS = 3_000;
const MAPPED = 2_000;

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
    // A version's set changes one entry, round the entries: in one language (a set holding its one
    // change) at odd versions, in two (rows of `changes`) at even ones; 1,000 versions of each entry.
    await server.store.db.transaction().execute(async (trx) => {
      for (let version = 1; version <= VERSIONS; version += 1) {
        const entry = version % ENTRIES;
        const change = (language: string): ChangeRecord => ({ target: 'translation', op: 'update', groupId: `group-${entry % 2}`, entryId: `entry-${entry}`, language, key: `g.e${entry}`, before: { text: 'a' }, after: { text: 'b' } });
        const id = `set-${version}`;
        setIds.push(id);
        const revertOf = version > 1 && version % 100 === 0 ? `set-${version - 1}` : null;
        await recordChangeSet(trx, { id, projectId, version, source: 'api', userId: owner.id, apiKeyId: null, createdAt: new Date().toISOString(), revertOf }, version % 2 === 1 ? [change('de')] : [change('de'), change('fr')]);
      }
    });
    await mapChangeObjects(server.store.db, projectId, MAPPED);
    if (dialect === 'postgres') await sql`analyze changes; analyze change_sets; analyze change_objects`.execute(server.store.db);
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
  const pageRows = (filter: Partial<ChangeFilter>) => pageOfChanges(page(filter), { limit: 100, offset: 0, ...filter });
  /** The plan reads `table` (as `alias`) through `index` ('PRIMARY KEY': SQLite's key of a table without rowid, PostgreSQL's change_sets_version). */
  const reads = (alias: string, table: string, index: string) => {
    if (dialect === 'sqlite') return new RegExp(`\\b(SEARCH|SCAN) ${alias} USING (COVERING )?${index === 'PRIMARY KEY' ? 'PRIMARY KEY' : `INDEX ${index}`}\\b`);
    const named = index === 'PRIMARY KEY' ? (table === 'change_objects' ? 'change_objects_key' : 'change_sets_version') : index;
    return new RegExp(`Index (Only )?Scan( Backward)? using ${named} on ${table} ${alias}|Bitmap Index Scan on ${named}\\b`);
  };
  const scansAll = dialect === 'sqlite' ? /\bSCAN (c|cs)\b(?! USING)/ : /Seq Scan on change/;

  it.each([
    ['an entry', { entryId: 'entry-1' }, 'changes_entry', 'PRIMARY KEY', true],
    ['an entry, as a feed', { entryId: 'entry-1', afterVersion: 10 }, 'changes_entry', 'PRIMARY KEY', true],
    ['an entry, in one language', { entryId: 'entry-1', language: 'fr' }, 'changes_entry', 'PRIMARY KEY', true],
    ['a group', { groupId: 'group-1' }, 'changes_group', 'PRIMARY KEY', true],
    ['a change set', { changeSetId: 'set-7' }, 'changes_project_version', 'change_sets_id', false],
    ['the project', {}, 'changes_project_version', 'PRIMARY KEY', false],
    ['the project, as a feed', { afterVersion: 2_990 }, 'changes_project_version', 'PRIMARY KEY', false],
  ] as const)("reads %s's changes through its indexes in both places, page and counts", async (_what, filter, rowsIndex, setsIndex, mapped) => {
    const statements = page(filter);
    const [countRows, countHeld] = statements.counts;
    const [pageRows, pageHeld] = statements.arms;
    for (const [statement, alias, table, index] of [
      [pageRows, 'c', 'changes', rowsIndex],
      [pageHeld, 'cs', 'change_sets', setsIndex],
      [countRows, 'c', 'changes', rowsIndex],
      [countHeld, 'cs', 'change_sets', setsIndex],
    ] as const) {
      const plan = await planOf(statement);
      expect(plan, plan).toMatch(reads(alias, table, index));
      expect(plan, plan).not.toMatch(scansAll);
      // the sets holding one change of an entry or a group: its mapped ones by change_objects' key
      if (mapped && table === 'change_sets') expect(plan, plan).toMatch(reads('o', 'change_objects', 'PRIMARY KEY'));
    }
    // the page's two halves each cut to the page's end on its own and merged in order, never all of an object's sets joined and sorted
    if (mapped) {
      const plan = await planOf(pageHeld);
      if (dialect === 'sqlite') expect(plan, plan).toMatch(/MERGE \(UNION ALL\)\nLEFT\nCO-ROUTINE half\n(.*\n)*RIGHT\nCO-ROUTINE half\n/);
      else expect(plan.match(/^\s*(->\s*)?Limit\b/gm)?.length, plan).toBe(3);
    }
  });

  /** entry-1's changes, newest first: (version, language) of each. */
  const entryOneChanges = Array.from({ length: VERSIONS }, (_, i) => VERSIONS - i)
    .filter((version) => version % ENTRIES === 1)
    .flatMap((version) => (version % 2 === 1 ? [[version, 'de']] : [[version, 'fr'], [version, 'de']]));

  it("answers one entry's newest page of its 1,500 changes from both places, a later page, and a feed after a version", async () => {
    const total = async (filter: Partial<ChangeFilter>) => {
      const counts = await Promise.all(page(filter).counts.map((count) => count.executeTakeFirstOrThrow()));
      return counts.reduce((sum, count) => sum + Number(count.total), 0);
    };
    expect(await total({ entryId: 'entry-1' })).toBe(entryOneChanges.length);
    const versionsAndLanguages = (rows: { version: number; language: string | null }[]) => rows.map((row) => [Number(row.version), row.language]);
    expect(versionsAndLanguages(await pageRows({ entryId: 'entry-1' }))).toEqual(entryOneChanges.slice(0, 100));
    expect(versionsAndLanguages(await pageRows({ entryId: 'entry-1', offset: 700, limit: 50 }))).toEqual(entryOneChanges.slice(700, 750));
    const feed = await pageRows({ entryId: 'entry-1', afterVersion: 2_900, limit: 5 });
    expect(versionsAndLanguages(feed)).toEqual([[2_902, 'de'], [2_902, 'fr'], [2_905, 'de'], [2_908, 'de'], [2_908, 'fr']]);
    expect(await total({ entryId: 'entry-1', afterVersion: 2_900 })).toBe(entryOneChanges.filter(([version]) => (version as number) > 2_900).length);
    // after a mapped set holding the entry's one change (1,003: odd, 1,003 % 3 = 1), and one of a group's (1,001: entry 2 of group-0): counted by the mapping and the sets since
    const changesAfter = (afterVersion: number, inEntry: (entry: number) => boolean) =>
      Array.from({ length: VERSIONS - afterVersion }, (_, i) => afterVersion + 1 + i)
        .filter((version) => inEntry(version % ENTRIES))
        .reduce((sum, version) => sum + (version % 2 === 1 ? 1 : 2), 0);
    expect(await total({ entryId: 'entry-1', afterVersion: 1_003 })).toBe(changesAfter(1_003, (entry) => entry === 1));
    expect(await total({ groupId: 'group-0', afterVersion: 1_001 })).toBe(changesAfter(1_001, (entry) => entry % 2 === 0));
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
