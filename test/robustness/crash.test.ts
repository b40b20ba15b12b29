/**
 * Crash safety: `tolk serve` runs as a child on the test store and takes a stream of writes
 * (creates of groups and entries, translation upserts, entry edits), several in flight; it is
 * killed with SIGKILL at seeded random moments and restarted. After every kill each write that got
 * a 2xx must be there with its exact content, each write whose answer was lost must be wholly there
 * or wholly absent, and the store must pass the integrity check.
 *
 * Reproduce: CRASH_SEED=<seed> (printed) gives the same operations and kill delays; CRASH_KILLS=<n>.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/domain/users/create-user.js';
import { sleep, startServerProcess, type ServerProcess } from '../helpers/access.js';
import { DIALECTS } from '../helpers/dialects.js';
import { checkIntegrity } from '../helpers/integrity.js';
import { openTestStore } from '../helpers/server.js';
import { call, type Answer } from './api-client.js';
import { envNumber, seededRandom } from './world.js';

const SEED = envNumber('CRASH_SEED', 4_242);
const KILLS = envNumber('CRASH_KILLS', 5);
const IN_FLIGHT = 6;
const LANGUAGES = ['de', 'fr', 'pt-BR'];

const figures: string[] = [];
afterAll(() => console.log(`[crash] ${figures.join('; ')} (seed ${SEED})`));

interface GroupModel {
  projectId: string;
  parentId: string | null;
  technicalName: string;
  displayName: string;
  depth: number;
}
interface EntryModel {
  groupId: string;
  technicalName: string;
  baseTerm: string;
  contextInfo: string | null;
}
/** A value the store must hold: the last acknowledged one, or one whose answer was lost. */
interface Versioned {
  acked: string | null;
  unknown: string[];
}

describe.each(DIALECTS)('crash safety on %s', (dialect) => {
  it(`keeps every acknowledged write, exactly, through ${KILLS} SIGKILLs and restarts; nothing half-written`, async () => {
    const random = seededRandom(SEED + DIALECTS.indexOf(dialect));
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
    const { store, url, dispose } = await openTestStore(dialect);
    let server: ServerProcess | undefined;
    const problems: string[] = [];
    let acknowledged = 0;
    let lost = 0;
    let checks = 0;
    let killsSurvived = 0;
    try {
      const { apiKey } = await createUser(store.db, { email: `crash-${dialect}@example.com`, firstName: 'Crash', lastName: 'Test', dailyQuota: 1_000_000_000 });
      server = await startServerProcess(url);
      const api = (method: string, path: string, body?: unknown) => call(server!.baseUrl, apiKey, method, path, body);
      const project = (await api('POST', '/projects', { name: 'Crash test', baseLanguage: 'en', translationLanguages: LANGUAGES })).body as { id: string };

      const groups = new Map<string, GroupModel>();
      const entries = new Map<string, EntryModel>();
      const baseTerms = new Map<string, Versioned>();
      const translations = new Map<string, Versioned>();
      /** Creates whose answer was lost: their row may exist, and if it does it must be whole. */
      const lostCreates: Array<{ kind: 'group'; model: GroupModel } | { kind: 'entry'; model: EntryModel }> = [];
      /** Keys with a write in flight: one at a time per key, so "the last acknowledged" is well defined. */
      const busy = new Set<string>();
      let counter = 0;
      const text = (label: string) => `${label} ${counter++} «äöü» 😀 '"%_\\ ${'x'.repeat(Math.floor(random() * 40))}`;

      /** One write chosen by the seeded generator; returns false once the server is gone. */
      async function writeOnce(): Promise<boolean> {
        const roll = random();
        const groupIds = [...groups.keys()];
        const entryIds = [...entries.keys()];
        const send = async (method: string, path: string, body: unknown): Promise<Answer | null> => {
          try {
            return await api(method, path, body);
          } catch {
            lost += 1;
            return null;
          }
        };
        if (roll < 0.3 || groupIds.length === 0) {
          const parents = groupIds.filter((id) => groups.get(id)!.depth < 9);
          const parentId = parents.length === 0 || random() < 0.2 ? null : pick(parents);
          const model: GroupModel = {
            projectId: project.id,
            parentId,
            technicalName: `group${counter++}`,
            displayName: text('Group'),
            depth: parentId === null ? 1 : groups.get(parentId)!.depth + 1,
          };
          const answer = await send('POST', `/projects/${project.id}/groups`, { technicalName: model.technicalName, displayName: model.displayName, parentId });
          if (!answer) lostCreates.push({ kind: 'group', model });
          else if (answer.status === 200) {
            groups.set(answer.body.id, model);
            acknowledged += 1;
          } else problems.push(`create group answered ${answer.status} ${answer.text.slice(0, 200)}`);
          return answer !== null;
        }
        if (roll < 0.55 || entryIds.length === 0) {
          const model: EntryModel = { groupId: pick(groupIds), technicalName: `entry${counter++}`, baseTerm: text('Base'), contextInfo: random() < 0.5 ? null : text('Context') };
          const answer = await send('POST', `/groups/${model.groupId}/entries`, { technicalName: model.technicalName, baseTerm: model.baseTerm, contextInfo: model.contextInfo });
          if (!answer) lostCreates.push({ kind: 'entry', model });
          else if (answer.status === 200) {
            entries.set(answer.body.id, model);
            baseTerms.set(answer.body.id, { acked: model.baseTerm, unknown: [] });
            acknowledged += 1;
          } else problems.push(`create entry answered ${answer.status} ${answer.text.slice(0, 200)}`);
          return answer !== null;
        }
        const entryId = pick(entryIds);
        const editsBase = roll > 0.9;
        const key = editsBase ? `${entryId}|base` : `${entryId}|${pick(LANGUAGES)}`;
        if (busy.has(key)) return true;
        busy.add(key);
        try {
          const value = text(editsBase ? 'Edited' : 'Translation');
          const versions = editsBase ? baseTerms.get(entryId)! : (translations.get(key) ?? { acked: null, unknown: [] });
          if (!editsBase) translations.set(key, versions);
          const answer = editsBase
            ? await send('PATCH', `/entries/${entryId}`, { baseTerm: value })
            : await send('PUT', `/entries/${entryId}/translations`, { language: key.split('|')[1], translation: value });
          if (!answer) versions.unknown.push(value);
          else if (answer.status === 200) {
            versions.acked = value;
            versions.unknown = [];
            acknowledged += 1;
          } else problems.push(`${editsBase ? 'entry edit' : 'translation'} answered ${answer.status} ${answer.text.slice(0, 200)}`);
          return answer !== null;
        } finally {
          busy.delete(key);
        }
      }

      /** Compares the store with the model; writes whose answer was lost are resolved to what the store holds. */
      async function verify(afterKill: number): Promise<void> {
        const where = `after kill ${afterKill}`;
        const groupRows = new Map((await store.db.selectFrom('groups').selectAll().where('project_id', '=', project.id).execute()).map((row) => [row.id, row]));
        const entryRows = new Map((await store.db.selectFrom('entries').selectAll().where('project_id', '=', project.id).execute()).map((row) => [row.id, row]));
        const translationRows = await store.db.selectFrom('translations').selectAll().where('entry_id', 'in', [...entryRows.keys(), '-']).execute();
        const stored = new Map(translationRows.map((row) => [`${row.entry_id}|${row.language}`, row.translation]));

        for (const [id, model] of groups) {
          checks += 1;
          const row = groupRows.get(id);
          const same = row && row.parent_id === model.parentId && row.technical_name === model.technicalName && row.display_name === model.displayName;
          if (!same) problems.push(`${where}: acknowledged group ${id} ${row ? `differs: ${JSON.stringify(row)}` : 'is missing'}`);
        }
        for (const [id, model] of entries) {
          checks += 1;
          const row = entryRows.get(id);
          const versions = baseTerms.get(id)!;
          const same = row && row.group_id === model.groupId && row.technical_name === model.technicalName && row.context_info === model.contextInfo;
          if (!same) problems.push(`${where}: acknowledged entry ${id} ${row ? `differs: ${JSON.stringify(row)}` : 'is missing'}`);
          else if (row.base_term !== versions.acked && !versions.unknown.includes(row.base_term)) {
            problems.push(`${where}: entry ${id} has base term "${row.base_term}", acknowledged "${versions.acked}"`);
          } else {
            versions.acked = row.base_term;
            versions.unknown = [];
          }
        }
        for (const [key, versions] of translations) {
          checks += 1;
          const value = stored.get(key) ?? null;
          if (value !== versions.acked && !versions.unknown.includes(value ?? '')) {
            problems.push(`${where}: translation ${key} is ${JSON.stringify(value)}, acknowledged ${JSON.stringify(versions.acked)}`);
          }
          versions.acked = value;
          versions.unknown = [];
        }
        // A create whose answer was lost is all there (adopted into the model) or not there at all.
        for (const lostCreate of lostCreates.splice(0)) {
          if (lostCreate.kind === 'group') {
            const { model } = lostCreate;
            const row = [...groupRows.values()].find((r) => r.technical_name === model.technicalName);
            if (!row) continue;
            if (row.parent_id !== model.parentId || row.display_name !== model.displayName) problems.push(`${where}: unacknowledged group ${row.id} is not what was sent: ${JSON.stringify(row)}`);
            else groups.set(row.id, model);
          } else {
            const { model } = lostCreate;
            const row = [...entryRows.values()].find((r) => r.technical_name === model.technicalName);
            if (!row) continue;
            if (row.group_id !== model.groupId || row.base_term !== model.baseTerm || row.context_info !== model.contextInfo) {
              problems.push(`${where}: unacknowledged entry ${row.id} is not what was sent: ${JSON.stringify(row)}`);
            } else {
              entries.set(row.id, model);
              baseTerms.set(row.id, { acked: model.baseTerm, unknown: [] });
            }
          }
        }
        // Nothing the model does not know of (no row from a write that failed or was never sent).
        const known = new Set([...groups.keys()]);
        for (const id of groupRows.keys()) if (!known.has(id)) problems.push(`${where}: group ${id} was never written`);
        for (const id of entryRows.keys()) if (!entries.has(id)) problems.push(`${where}: entry ${id} was never written`);
        problems.push(...(await checkIntegrity(store.db)).map((line) => `${where}: ${line}`));
      }

      for (let kill = 1; kill <= KILLS; kill++) {
        let running = true;
        const writers = Array.from({ length: IN_FLIGHT }, async () => {
          while (running) if (!(await writeOnce())) return;
        });
        await sleep(300 + Math.floor(random() * 700));
        running = false;
        server.child.kill('SIGKILL');
        await Promise.all(writers);
        await server.stop(); // already dead: waits for the exit
        killsSurvived += 1;
        await verify(kill);
        server = await startServerProcess(url);
      }
      // The restarted server serves what the store holds.
      const answer = await api('GET', `/projects/${project.id}/groups/summary`);
      if (answer.status !== 200 || answer.body.length !== groups.size) problems.push(`after the last restart: summary answered ${answer.status} with ${answer.body?.length} groups, expected ${groups.size}`);

      figures.push(
        `${dialect}: ${killsSurvived} kills survived; writes verified: ${acknowledged} acknowledged, each found exact after the next kill ` +
          `(${checks} checks; ${lost} answers lost to kills, each write found whole or absent; ${groups.size} groups, ${entries.size} entries, ${translations.size} translations at the end)`,
      );
      expect(problems).toEqual([]);
      expect(acknowledged, 'too few writes got through to prove anything').toBeGreaterThan(KILLS * 5);
    } finally {
      await server?.stop();
      await store.close();
      await dispose();
    }
  }, 120_000);
});
