/**
 * `tolk history` (CONTRACT "History", CLI) and `tolk push`'s change set line, against a real server, run
 * in this process (the command's action and the push's report table; spawning the built CLI would prove
 * nothing more): the change sets' table, one entry's changes (a deleted one's too), --json as the API's
 * page of everything fetched, paging past 100 up to the cap, errors, and no terminal control sequence.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { history, HISTORY_CAP, registerHistoryCommand, type HistoryOptions } from '../../src/cli/history/history.js';
import { packFiles } from '../../src/cli/push/pack-files.js';
import { push } from '../../src/cli/push/push.js';
import { reportTable } from '../../src/cli/push/report-table.js';
import { accountFiles } from '../../src/imports/files-account.js';
import { recordChangeSet } from '../../src/store/content-writes/change-log.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createGroup, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

/** What a terminal takes as the start of a control sequence, or an invisible reordering of the line. */
const TERMINAL_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe.each(DIALECTS)('tolk history on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let projectId: string;
  let entryId: string;
  let doomedId: string;

  const options = (more: Partial<HistoryOptions> = {}): HistoryOptions => ({ url: new URL(server.baseUrl).origin, apiKey: owner.apiKey, project: projectId, json: false, ...more });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await server.api(method, path, { key: owner.apiKey, ...(body === undefined ? {} : { body }) });
    expect(response.status, response.text).toBeLessThan(300);
    return response.body;
  };

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
    projectId = (await createProject(server, owner.apiKey, { name: 'Shop app' })).id;
    const group = await createGroup(server, owner.apiKey, projectId, 'auth');
    entryId = (await createEntry(server, owner.apiKey, group.id, 'submit', 'Sign in')).id;
    await setTranslation(server, owner.apiKey, entryId, 'de', 'Anmelden');
    await setTranslation(server, owner.apiKey, entryId, 'de', 'Einloggen');
    await api('PATCH', `/entries/${entryId}`, { baseTerm: 'Log in' });
    doomedId = (await createEntry(server, owner.apiKey, group.id, 'doomed', 'Gone \u001b[31msoon\u202e')).id;
    await api('DELETE', `/entries/${doomedId}`);
  });
  afterAll(() => server?.close());

  it("prints the project's change sets newest first: version, when, who, source, summary, id, reverted", async () => {
    const text = await history(options());
    const lines = text.split('\n');
    expect(lines[0]).toBe(`Change sets of project ${projectId} (7)`);
    expect(lines[1]).toMatch(/^version\s+when \(UTC\)\s+who\s+source\s+changes\s+id\s+reverted$/);
    const sets = (await api('GET', `/projects/${projectId}/change-sets`)).result;
    expect(lines.slice(3)).toHaveLength(7);
    sets.forEach((set: any, i: number) => {
      const row = lines[3 + i]!;
      expect(row.startsWith(`${set.version} `)).toBe(true);
      expect(row).toContain(set.createdAt.replace('T', ' ').slice(0, 16));
      expect(row).toContain(`${set.user.firstName} ${set.user.lastName}`);
      expect(row).toContain(set.id);
      expect(row).toMatch(/\bapi\b.*-$/);
    });
    expect(lines[3]).toContain('+0 ~0 -1');
    expect(lines.at(-1)).toContain('+1 ~0 -0');
  });

  it("prints one entry's changes with what each changed; a deleted entry's too, its text made inert", async () => {
    const lines = (await history(options({ entry: entryId }))).split('\n');
    expect(lines[0]).toBe(`Changes of entry ${entryId} (auth.submit) (4)`);
    expect(lines.slice(3).map((line) => line.replace(/^.*\b(api)\s+/, ''))).toEqual([
      'entry update                  baseTerm: "Sign in" → "Log in"',
      'translation update  de        "Anmelden" → "Einloggen"',
      'translation create  de        "Anmelden"',
      'entry create                  "Sign in"',
    ]);
    const deleted = await history(options({ entry: doomedId }));
    expect(deleted).toContain('entry delete');
    expect(deleted).toContain('deleted "Gone \\x1b[31msoon\\u202e"');
    expect(deleted).not.toMatch(TERMINAL_CONTROL);
    expect(await history(options({ entry: 'no-such-entry' }))).toBe('No changes of entry no-such-entry.');
  });

  it("prints with --json the API's page: the same items, the total, one JSON object", async () => {
    const printed = await history(options({ json: true }));
    expect(printed.split('\n')).toHaveLength(1);
    const answer = await api('GET', `/projects/${projectId}/change-sets`);
    expect(JSON.parse(printed)).toEqual({ limit: HISTORY_CAP, offset: 0, total: 7, result: answer.result });
    const changes = JSON.parse(await history(options({ json: true, entry: doomedId })));
    expect(changes.result.map((change: any) => `${change.target} ${change.op}`)).toEqual(['entry delete', 'entry create']);
    expect(changes.result[0].before).toMatchObject({ baseTerm: 'Gone \u001b[31msoon\u202e', translations: [] });
  });

  it('pages past 100 items, and stops at the cap with the total', async () => {
    const many = (await createProject(server, owner.apiKey, { name: 'Busy app' })).id;
    const count = HISTORY_CAP + 5;
    await server.store.db.transaction().execute(async (trx) => {
      for (let version = 1; version <= count; version += 1) {
        const set = { id: `busy-${version}`, projectId: many, version, source: 'api', userId: owner.id, apiKeyId: null, createdAt: new Date().toISOString(), revertOf: null };
        await recordChangeSet(trx, set, [{ target: 'project', op: 'update', key: null, before: { name: 'a' }, after: { name: 'b' } }]);
      }
    });
    const page = JSON.parse(await history(options({ project: many, json: true })));
    expect(page.total).toBe(count);
    expect(page.result).toHaveLength(HISTORY_CAP);
    expect(page.result.map((set: any) => set.version)).toEqual(Array.from({ length: HISTORY_CAP }, (_, i) => count - i));
    const table = await history(options({ project: many }));
    expect(table.split('\n')[0]).toBe(`Change sets of project ${many} (1,005; the newest 1,000 listed)`);
  });

  it("says why it failed in one line: the server's error, a missing setting, an unreachable server", async () => {
    await expect(history(options({ project: 'no-such-project' }))).rejects.toThrow('ERR_PROJECT_NOT_FOUND: project not found');
    await expect(history(options({ apiKey: 'tolk_not-a-key' }))).rejects.toThrow(/^ERR_UNAUTHORIZED/);
    await expect(history(options({ url: 'http://127.0.0.1:1' }))).rejects.toThrow(/^cannot reach http:\/\/127\.0\.0\.1:1/);
    const empty = (await createProject(server, owner.apiKey, { name: 'New app' })).id;
    expect(await history(options({ project: empty }))).toBe(`No changes to project ${empty} yet.`);
  });

  it('is the `history` command: flags and TOLK_URL / TOLK_API_KEY reach it, its output goes to stdout', async () => {
    const program = new Command('tolk').exitOverride();
    registerHistoryCommand(program);
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => (written.push(String(chunk)), true));
    vi.stubEnv('TOLK_URL', new URL(server.baseUrl).origin);
    vi.stubEnv('TOLK_API_KEY', owner.apiKey);
    try {
      await program.parseAsync(['history', '--project', projectId, '--entry', entryId, '--json'], { from: 'user' });
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({ total: 4, result: [{ entryId, target: 'entry', op: 'update' }, {}, {}, {}] });
  });

  it("has `tolk push` print its import's change set, the one the history lists, and none for a dry run", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tolk-history-push-'));
    const file = join(dir, 'messages.json');
    writeFileSync(file, JSON.stringify({ en: { pushed: { title: 'Pushed' } } }));
    const settings = { url: new URL(server.baseUrl).origin, apiKey: owner.apiKey, project: projectId, format: 'json', in: file, mode: 'keep', skipInvalid: false, json: false, escaping: false } as const;
    for (const dryRun of [true, false]) {
      const packed = await packFiles('json', file);
      const outcome = await push({ ...settings, dryRun }, packed);
      if (!outcome.ok) throw new Error(outcome.message);
      const text = reportTable(outcome.report, accountFiles(packed.layout, outcome.report));
      if (dryRun) {
        expect(outcome.report.changeSetId).toBeNull();
        expect(text).not.toContain('Change set:');
        continue;
      }
      const [newest] = (await api('GET', `/projects/${projectId}/change-sets?limit=1`)).result;
      expect(newest).toMatchObject({ id: outcome.report.changeSetId, source: 'import' });
      expect(text.split('\n')).toContain(`Change set: ${newest.id} (undo with: tolk revert --change-set ${newest.id})`);
    }
  });
});
