/**
 * Races: requests that are each valid but together could break an invariant, sent at the same
 * time. Concurrent creates of one technical name, moves that together would make a cycle or nest
 * too deep, upserts of one (entry, language), deletes racing with writes into the deleted subtree,
 * exports racing with writes; then the same races split across two server processes on one store.
 * Whatever the interleaving: no 5xx, contract error bodies, no duplicates, no cycles, no orphans.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/access.js';
import { DIALECTS } from '../helpers/dialects.js';
import { checkIntegrity } from '../helpers/integrity.js';
import { createEntry, createGroup, createGroupChain, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { answerProblems, call, EXPORT_FORMATS, exportProblems, type Answer } from './api-client.js';
import { envNumber } from './world.js';

/** Rounds of each kind of race (each round is one batch of concurrent requests). */
const ROUNDS = envNumber('RACE_ROUNDS', 12);
const WIDTH = 8;
const BIG_QUOTA = 1_000_000_000;

const racesTried: Record<string, number> = {};
afterAll(() => {
  const all = Object.values(racesTried).reduce((sum, n) => sum + n, 0);
  console.log(`[races] races tried: ${Object.entries(racesTried).map(([d, n]) => `${n} on ${d}`).join(', ')}; ${all} in all`);
});

describe.each(DIALECTS)('races on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  /** Base URLs the racing requests are spread over (one process unless a test adds another). */
  let targets: string[];
  /** What went wrong in the current test; asserted empty at its end (so one run reports every failed round). */
  let wrong: string[];

  beforeAll(async () => {
    server = await startServer(dialect);
    key = (await server.user({ dailyQuota: BIG_QUOTA })).apiKey;
    racesTried[dialect] = 0;
  });
  afterAll(() => server?.close());

  const db = () => server.store.db;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(server.baseUrl, key, method, path, body, headers);

  /** Sends the requests at once, request i to target i mod n; counts one race; records 5xx and malformed errors. */
  async function race(label: string, requests: Array<[string, string, unknown?, Record<string, string>?]>): Promise<Answer[]> {
    racesTried[dialect]! += 1;
    const answers = await Promise.all(
      requests.map(([method, path, body, headers], i) => call(targets[i % targets.length]!, key, method, path, body, headers)),
    );
    answers.forEach((answer, i) => wrong.push(...answerProblems(`${label}: ${requests[i]![0]} ${requests[i]![1]}`, answer)));
    return answers;
  }

  function expectOutcome(label: string, answers: Answer[], expected: Record<number, number>): void {
    const counts: Record<number, number> = {};
    for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
    if (JSON.stringify(counts) !== JSON.stringify(expected)) wrong.push(`${label}: statuses ${JSON.stringify(counts)}, expected ${JSON.stringify(expected)}`);
  }

  async function finish(): Promise<void> {
    expect.soft(wrong).toEqual([]);
    expect(await checkIntegrity(db())).toEqual([]);
  }

  /** Each test starts on the one in-process server with an empty list of what went wrong. */
  const startTest = () => {
    targets = [server.baseUrl];
    wrong = [];
  };

  async function sameNameCreates(rounds: number): Promise<void> {
    const project = await createProject(server, key, { name: 'Same names' });
    const parent = await createGroup(server, key, project.id, 'parent');
    for (let round = 0; round < rounds; round++) {
      const name = `name${round}x`;
      const kind = round % 4;
      const requests = Array.from({ length: WIDTH }, (_, i): [string, string, unknown] => {
        const group: [string, string, unknown] = ['POST', `/projects/${project.id}/groups`, { technicalName: name, displayName: `D${i}`, parentId: kind === 0 ? null : parent.id }];
        const entry: [string, string, unknown] = ['POST', `/groups/${parent.id}/entries`, { technicalName: name, baseTerm: `T${i}` }];
        return kind <= 1 ? group : kind === 2 ? entry : i % 2 === 0 ? group : entry;
      });
      const label = `same-name round ${round} (${['top-level groups', 'sub-groups', 'entries', 'sub-groups and entries'][kind]})`;
      const answers = await race(label, requests);
      expectOutcome(label, answers, { 200: 1, 409: WIDTH - 1 });
      for (const answer of answers.filter((a) => a.status === 409)) if (answer.body?.code !== 'ERR_CONFLICT') wrong.push(`${label}: 409 ${answer.text}`);
      const groups = await db().selectFrom('groups').select('id').where('project_id', '=', project.id).where('technical_name', '=', name).execute();
      const entries = await db().selectFrom('entries').select('id').where('project_id', '=', project.id).where('technical_name', '=', name).execute();
      if (groups.length + entries.length !== 1) wrong.push(`${label}: ${groups.length} groups and ${entries.length} entries named ${name}`);
    }
  }

  async function cycleMoves(rounds: number): Promise<void> {
    const project = await createProject(server, key, { name: 'Moves' });
    for (let round = 0; round < rounds; round++) {
      const a = await createGroup(server, key, project.id, `a${round}`);
      const b = await createGroup(server, key, project.id, `b${round}`);
      const pair = await race(`cycle round ${round}: A under B and B under A`, [
        ['PATCH', `/groups/${a.id}`, { parentId: b.id }],
        ['PATCH', `/groups/${b.id}`, { parentId: a.id }],
      ]);
      expectOutcome(`cycle round ${round}`, pair, { 200: 1, 409: 1 });

      const [x, y, z] = await Promise.all(['x', 'y', 'z'].map((n) => createGroup(server, key, project.id, `${n}${round}`)));
      const triangle = await race(`cycle round ${round}: X→Y, Y→Z, Z→X`, [
        ['PATCH', `/groups/${x!.id}`, { parentId: y!.id }],
        ['PATCH', `/groups/${y!.id}`, { parentId: z!.id }],
        ['PATCH', `/groups/${z!.id}`, { parentId: x!.id }],
      ]);
      expectOutcome(`triangle round ${round}`, triangle, { 200: 2, 409: 1 });

      if (round % 3 === 0) {
        // Each write alone stays within depth 10; both together would make depth 11.
        const low = await createGroupChain(server, key, project.id, 5, `low${round}x`);
        const high = await createGroupChain(server, key, project.id, 5, `high${round}x`);
        const depth = await race(`depth round ${round}: move a 5-chain under a 5-chain while adding a 6th level to it`, [
          ['PATCH', `/groups/${high[0].id}`, { parentId: low[4].id }],
          ['POST', `/projects/${project.id}/groups`, { technicalName: 'deeper', displayName: 'Deeper', parentId: high[4].id }],
        ]);
        expectOutcome(`depth round ${round}`, depth, { 200: 1, 400: 1 });
        const refused = depth.find((answer) => answer.status === 400);
        if (refused && refused.body?.code !== 'ERR_HIERARCHY_LIMIT') wrong.push(`depth round ${round}: 400 ${refused.text}`);
      }
    }
  }

  async function upserts(rounds: number): Promise<void> {
    const project = await createProject(server, key, { name: 'Upserts', translationLanguages: ['de'] });
    const group = await createGroup(server, key, project.id, 'main');
    for (let round = 0; round < rounds; round++) {
      // A fresh entry: the first saves race to insert the row, the later ones to update it.
      const entry = await createEntry(server, key, group.id, `entry${round}`);
      const texts = Array.from({ length: WIDTH }, (_, i) => `Text ${round}.${i}`);
      const label = `upsert round ${round}`;
      const answers = await race(label, texts.map((translation): [string, string, unknown] => ['PUT', `/entries/${entry.id}/translations`, { language: 'de', translation }]));
      expectOutcome(label, answers, { 200: WIDTH });
      const rows = await db().selectFrom('translations').selectAll().where('entry_id', '=', entry.id).where('language', '=', 'de').execute();
      const saved = answers.filter((a) => a.status === 200).map((a) => a.body as { translation: string; updatedAt: string });
      const last = saved.reduce<{ translation: string; updatedAt: string } | undefined>((latest, s) => (!latest || s.updatedAt > latest.updatedAt ? s : latest), undefined);
      if (rows.length !== 1) wrong.push(`${label}: ${rows.length} rows for (entry, de)`);
      else if (new Set(saved.map((s) => s.updatedAt)).size !== saved.length) wrong.push(`${label}: two saves answered the same updatedAt (same ETag)`);
      else if (last && (rows[0]!.translation !== last.translation || rows[0]!.updated_at !== last.updatedAt)) {
        wrong.push(`${label}: stored "${rows[0]!.translation}" at ${rows[0]!.updated_at}, but the latest save answered "${last.translation}" at ${last.updatedAt}`);
      }

      // Saves made from the same read: exactly one may win, the others are told the text moved on.
      const etag = answers.find((a) => a.status === 200)?.headers.get('etag');
      if (!etag) continue;
      const current = await api('PUT', `/entries/${entry.id}/translations`, { language: 'de', translation: `Base ${round}` });
      const fromSameRead = await race(
        `if-match round ${round}`,
        texts.map((text): [string, string, unknown, Record<string, string>] => [
          'PUT',
          `/entries/${entry.id}/translations`,
          { language: 'de', translation: `${text} edited` },
          { 'if-match': current.headers.get('etag') ?? etag },
        ]),
      );
      expectOutcome(`if-match round ${round}`, fromSameRead, { 200: 1, 412: WIDTH - 1 });
    }
  }

  async function deletesRacingWrites(rounds: number): Promise<void> {
    for (let round = 0; round < rounds; round++) {
      const project = await createProject(server, key, { name: `Deletes ${round}`, translationLanguages: ['de'] });
      const top = await createGroup(server, key, project.id, 'top');
      const sub = await createGroup(server, key, project.id, 'sub', top.id);
      const leaf = await createGroup(server, key, project.id, 'leaf', sub.id);
      const outside = await createGroup(server, key, project.id, 'outside');
      const entry = await createEntry(server, key, sub.id, 'inSub');
      await setTranslation(server, key, entry.id, 'de', 'Drinnen');
      await createEntry(server, key, leaf.id, 'inLeaf');
      const deleteProject = round % 2 === 1;
      const label = `delete round ${round} (${deleteProject ? 'the project' : 'a group'})`;
      const answers = await race(label, [
        ['DELETE', deleteProject ? `/projects/${project.id}` : `/groups/${top.id}`],
        ['POST', `/groups/${sub.id}/entries`, { technicalName: 'newInSub', baseTerm: 'New' }],
        ['POST', `/groups/${leaf.id}/entries`, { technicalName: 'newInLeaf', baseTerm: 'New' }],
        ['POST', `/projects/${project.id}/groups`, { technicalName: 'underSub', displayName: 'Under sub', parentId: sub.id }],
        ['POST', `/projects/${project.id}/groups`, { technicalName: 'underLeaf', displayName: 'Under leaf', parentId: leaf.id }],
        ['PUT', `/entries/${entry.id}/translations`, { language: 'de', translation: 'Neu' }],
        ['PATCH', `/entries/${entry.id}`, { baseTerm: 'Changed' }],
        ['PATCH', `/groups/${outside.id}`, { parentId: sub.id }],
        ['PATCH', `/groups/${leaf.id}`, { technicalName: 'renamedLeaf' }],
        ['DELETE', `/entries/${entry.id}`],
        // reads of what is being deleted: 200 (before) or 404 (after), never a half-seen state
        ['GET', `/projects/${project.id}`],
        ['GET', `/projects/${project.id}/groups/summary`],
        ['GET', `/groups/${sub.id}`],
        ['GET', `/groups/${sub.id}/entries`],
        ['GET', `/entries/${entry.id}`],
        ['GET', `/projects/${project.id}/entries/untranslated?languageCode=de`],
      ]);
      if (answers[0]!.status !== 204) wrong.push(`${label}: the delete answered ${answers[0]!.status} ${answers[0]!.text}`);
      answers.slice(1).forEach((answer, i) => {
        // (a 5xx is already on the list, from race())
        if (answer.status < 500 && ![200, 204, 404].includes(answer.status)) wrong.push(`${label}: request ${i + 1} answered ${answer.status} ${answer.text}`);
      });
      // Whatever committed before the delete went with it; whatever came after found its target gone.
      const left = {
        groups: await db().selectFrom('groups').select(['id', 'parent_id', 'technical_name']).where('project_id', '=', project.id).execute(),
        entries: await db().selectFrom('entries').select(['id', 'technical_name']).where('project_id', '=', project.id).execute(),
        translations: await db().selectFrom('translations').select('id').where('entry_id', '=', entry.id).execute(),
      };
      const expectedGroups = deleteProject ? [] : answers[7]!.status === 200 ? [] : [{ id: outside.id, parent_id: null, technical_name: 'outside' }];
      if (JSON.stringify(left.groups) !== JSON.stringify(expectedGroups) || left.entries.length > 0 || left.translations.length > 0) {
        wrong.push(`${label}: left behind ${JSON.stringify(left)} (the move of "outside" answered ${answers[7]!.status})`);
      }
    }
  }

  async function exportsRacingWrites(rounds: number): Promise<{ exports: number }> {
    const project = await createProject(server, key, { name: 'Exports', translationLanguages: ['de', 'fr'] });
    const groups = [await createGroup(server, key, project.id, 'home'), await createGroup(server, key, project.id, 'settings')];
    const entries = [];
    for (const [i, group] of groups.entries()) {
      for (let e = 0; e < 3; e++) {
        const entry = await createEntry(server, key, group.id, `entry${i}x${e}`, `Text ${i}.${e}`);
        await setTranslation(server, key, entry.id, 'de', `Text ${i}.${e} de`);
        entries.push(entry);
      }
    }
    let exports = 0;
    for (let round = 0; round < rounds; round++) {
      const last = round === rounds - 1;
      const target = entries[round % entries.length]!;
      const writes: Array<[string, string, unknown?]> = [
        ['POST', `/projects/${project.id}/groups`, { technicalName: `group${round}`, displayName: 'Group', parentId: groups[round % 2]!.id }],
        ['POST', `/groups/${groups[0]!.id}/entries`, { technicalName: `added${round}`, baseTerm: `Added ${round}` }],
        ['PATCH', `/entries/${target.id}`, { baseTerm: `Changed ${round}` }],
        ['PUT', `/entries/${target.id}/translations`, { language: 'fr', translation: `Texte ${round}` }],
        ['PATCH', `/projects/${project.id}`, { translationLanguages: round % 2 === 0 ? ['de'] : ['de', 'fr'] }],
        ['PATCH', `/groups/${groups[1]!.id}`, { parentId: round % 2 === 0 ? groups[0]!.id : null }],
        last ? ['DELETE', `/projects/${project.id}`] : ['DELETE', `/entries/${target.id}/translations`, { language: 'de' }],
      ];
      const reads: Array<[string, string]> = EXPORT_FORMATS.flatMap((format): Array<[string, string]> => [
        ['GET', `/projects/${project.id}/export/${format}`],
        ['GET', `/projects/${project.id}/export/${format}?format=true`],
      ]);
      const label = `export round ${round}${last ? ' (with the project deleted)' : ''}`;
      const answers = await race(label, [...reads, ...writes]);
      for (const [i, answer] of answers.slice(0, reads.length).entries()) {
        const format = EXPORT_FORMATS[Math.floor(i / 2)]!;
        exports += 1;
        if (answer.status === 200) wrong.push(...(await exportProblems(format, answer.bytes)).map((p) => `${label}: ${p}`));
        else if (answer.status < 500 && !(answer.status === 404 && last) && !(answer.status === 409 && format === 'flutter')) {
          wrong.push(`${label}: export ${format} answered ${answer.status} ${answer.text.slice(0, 200)}`);
        }
      }
      answers.slice(reads.length).forEach((answer, i) => {
        // Legitimate outcomes of the race itself: the project gone (last round), French dropped
        // from the project's languages just before the French save.
        const legitimate = answer.status < 300 || answer.status >= 500 || (last && answer.status === 404) || (i === 3 && answer.status === 400);
        if (!legitimate) wrong.push(`${label}: ${writes[i]![0]} ${writes[i]![1]} answered ${answer.status} ${answer.text.slice(0, 200)}`);
      });
    }
    return { exports };
  }

  describe('within one server', () => {
    it('lets exactly one of concurrent creates of one technical name through and answers the rest 409 ERR_CONFLICT', async () => {
      startTest();
      await sameNameCreates(ROUNDS * 2);
      await finish();
    });

    it('never lets concurrent moves make a cycle or nest deeper than 10', async () => {
      startTest();
      await cycleMoves(ROUNDS);
      await finish();
    });

    it('keeps one row per (entry, language) under concurrent upserts, the last save wins, and If-Match lets one of a read\'s saves through', async () => {
      startTest();
      await upserts(ROUNDS);
      await finish();
    });

    it('leaves nothing behind when a delete races with writes into the deleted subtree, and reads see all or nothing', async () => {
      startTest();
      await deletesRacingWrites(ROUNDS);
      await finish();
    });

    it('answers every export racing with writes with 200 and a whole, parseable file, or a clean 4xx', async () => {
      startTest();
      await exportsRacingWrites(ROUNDS);
      await finish();
    });
  });

  describe('across two server processes on one store', () => {
    let other: ServerProcess;
    beforeAll(async () => {
      other = await startServerProcess(server.databaseUrl);
    });
    afterAll(() => other?.stop());

    it('holds the same invariants when the racing requests are split across both processes', async () => {
      startTest();
      targets = [server.baseUrl, other.baseUrl];
      await sameNameCreates(Math.ceil(ROUNDS / 2));
      await cycleMoves(Math.ceil(ROUNDS / 3));
      await upserts(Math.ceil(ROUNDS / 3));
      await deletesRacingWrites(Math.ceil(ROUNDS / 3));
      await exportsRacingWrites(Math.ceil(ROUNDS / 3));
      await finish();
    });
  });
});
