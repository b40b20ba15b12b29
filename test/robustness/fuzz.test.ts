/**
 * Property-based fuzzing of every route with fast-check: seeded, hostile requests (wrong types,
 * missing and extra fields, huge strings, deep nesting, prototype keys, lone surrogates, NUL, SQL and
 * LIKE metacharacters, path traversal, odd page values, duplicate params, bogus content types).
 * Every answer must be below 500 and, as an error, exactly the contract body; another user's
 * resources must stay invisible and unchanged; the store must pass the integrity check afterwards.
 *
 * Reproduce: FUZZ_SEED=<seed> (printed) regenerates the same request sequence; FUZZ_REQUESTS=<n>
 * sets the count per store. Ids are drawn from what the run has built, so with concurrency the
 * sequence of requests is reproducible, the interleaving of their effects is not.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeKey } from '../../src/domain/keys/api-keys.js';
import { DIALECTS } from '../helpers/dialects.js';
import { checkIntegrity } from '../helpers/integrity.js';
import { addConfirmedMember, invite } from '../helpers/access.js';
import { createEntry, createGroup, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { responseViolations } from './error-contract.js';
import { describe as describeRequest, toRawRequest, type ProjectState, type World } from './fuzz-materialize.js';
import { fuzzRequest, ROUTE_NAMES } from './fuzz-routes.js';
import { rawClient } from './raw-http.js';
import { envNumber, snapshotOf } from './world.js';

const SEED = envNumber('FUZZ_SEED', 20_240_611);
/** At least 10,000 per run across both stores. */
const PER_STORE = envNumber('FUZZ_REQUESTS', DIALECTS.length > 1 ? 5_000 : 10_000);
const CONCURRENCY = 8;
/** The integrity check runs after every chunk of this many requests (and the bystander comparison at the end). */
const CHUNK = 2_500;
const BIG_QUOTA = 1_000_000_000;

const totals: Record<string, number> = {};
const HARVESTED = new Set(['POST /projects', 'PATCH /projects/{id}', 'POST /projects/{id}/groups', 'POST /groups/{id}/entries']);

afterAll(() => {
  const all = Object.values(totals).reduce((sum, n) => sum + n, 0);
  console.log(`[fuzz] generated requests: ${Object.entries(totals).map(([d, n]) => `${n} on ${d}`).join(', ')}; ${all} in all (seed ${SEED})`);
});

interface Failure {
  index: number;
  route: string;
  /** the kind of body sent (json, deep, raw, bytes, none): tells apart 5xx of different causes */
  bodyKind: string;
  problem: string;
  request: string;
  answer: string;
}

/** Failures grouped by problem and answer (status and code), with the routes affected and one example each. */
function report(failures: Failure[]): string[] {
  const groups = new Map<string, { count: number; routes: Set<string>; example: Failure }>();
  for (const failure of failures) {
    const code = /"code":"([A-Z_]+)"/.exec(failure.answer)?.[1] ?? '';
    const status = failure.answer.slice(0, 3);
    const key = `${failure.problem.slice(0, 200)} [${status} ${code}${status >= '500' ? `, ${failure.bodyKind} body` : ''}]`;
    const group = groups.get(key) ?? { count: 0, routes: new Set<string>(), example: failure };
    group.count += 1;
    group.routes.add(failure.route);
    groups.set(key, group);
  }
  return [...groups.entries()].map(
    ([key, { count, routes, example }]) =>
      `${key} ×${count} on ${[...routes].join(', ')}; e.g. request #${example.index} (seed ${SEED}): ${example.request} → ${example.answer}`,
  );
}

describe.each(DIALECTS)('fuzzing every route on %s', (dialect) => {
  let server: TestServer;
  let world: World;
  let bystanderId: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    const [owner, editor, viewer, bystander] = await Promise.all([1, 2, 3, 4].map(() => server.user({ dailyQuota: BIG_QUOTA })));
    bystanderId = bystander!.id;
    const revoked = await createApiKey(server.store.db, owner!.id, 'revoked');
    await revokeKey(server.store.db, revoked.id);

    const projects: ProjectState[] = [];
    for (let p = 0; p < 3; p++) {
      const languages = ['de', 'pt-BR', 'fr'];
      const project = await createProject(server, owner!.apiKey, { name: `Fuzz ${p}`, translationLanguages: languages });
      const main = await createGroup(server, owner!.apiKey, project.id, 'main');
      const sub = await createGroup(server, owner!.apiKey, project.id, 'sub', main.id);
      const leaf = await createGroup(server, owner!.apiKey, project.id, 'leaf', sub.id);
      const state: ProjectState = { id: project.id, languages, groups: [main.id, sub.id, leaf.id], entries: [] };
      for (const group of [main, sub, leaf]) {
        const entry = await createEntry(server, owner!.apiKey, group.id, 'greeting', 'Hello %name_');
        await setTranslation(server, owner!.apiKey, entry.id, 'de', 'Hallo');
        state.entries.push(entry.id);
      }
      projects.push(state);
    }
    await addConfirmedMember(server, owner!.apiKey, projects[0]!.id, editor!, 'editor');
    await addConfirmedMember(server, owner!.apiKey, projects[0]!.id, viewer!, 'viewer');
    await invite(server, owner!.apiKey, projects[1]!.id, editor!, 'translator');

    // The bystander: another user's project that no fuzzed request may see or change.
    const theirs = await createProject(server, bystander!.apiKey, { name: 'Not yours', translationLanguages: ['de'] });
    const theirGroup = await createGroup(server, bystander!.apiKey, theirs.id, 'main');
    const theirSub = await createGroup(server, bystander!.apiKey, theirs.id, 'sub', theirGroup.id);
    const theirEntry = await createEntry(server, bystander!.apiKey, theirSub.id, 'greeting', 'Hello');
    await setTranslation(server, bystander!.apiKey, theirEntry.id, 'de', 'Hallo');

    world = {
      projects,
      users: [owner!.id, editor!.id, viewer!.id],
      foreign: { project: [theirs.id], group: [theirGroup.id, theirSub.id], entry: [theirEntry.id], user: [bystander!.id] },
      keys: { owner: owner!.apiKey, editor: editor!.apiKey, viewer: viewer!.apiKey, revoked: revoked.apiKey },
      emails: { owner: owner!.email, editor: editor!.email, viewer: viewer!.email, bystander: bystander!.email },
    };
  });
  afterAll(() => server?.close());

  it(`answers ${PER_STORE} generated requests below 500, with contract error bodies, leaving others' data and the store's integrity intact`, async () => {
    const started = Date.now();
    const before = await snapshotOf(server.store.db, server.store.usage, bystanderId);
    const requests = fc.sample(fuzzRequest, { seed: SEED, numRuns: PER_STORE });
    const client = rawClient(server.baseUrl.replace(/\/api\/v1$/, ''), CONCURRENCY);
    const failures: Failure[] = [];
    const perRoute = new Map<string, Record<string, number>>();
    const projectOfGroup = new Map<string, ProjectState>();
    for (const project of world.projects) for (const group of project.groups) projectOfGroup.set(group, project);
    /** What a success made becomes an id later requests can aim at. */
    const harvest = (route: string, body: any) => {
      if (route === 'POST /projects' || route === 'PATCH /projects/{id}') {
        const known = world.projects.find((project) => project.id === body.id);
        if (known) known.languages = body.translationLanguages;
        else world.projects.push({ id: body.id, languages: body.translationLanguages, groups: [], entries: [] });
      } else if (route === 'POST /projects/{id}/groups') {
        const project = world.projects.find((candidate) => candidate.id === body.projectId);
        project?.groups.push(body.id);
        if (project) projectOfGroup.set(body.id, project);
      } else if (route === 'POST /groups/{id}/entries') {
        projectOfGroup.get(body.groupId)?.entries.push(body.id);
      }
    };
    let sent = 0;

    const runOne = async (index: number) => {
      const template = requests[index]!;
      const { raw, namesForeign } = toRawRequest(template, world);
      const requestText = `${raw.path} ${typeof raw.body === 'string' ? raw.body : ''}`;
      let problems: string[];
      let answer: string;
      let status = 0;
      let code = '';
      try {
        const response = await client.send(raw);
        status = response.status;
        answer = `${status} ${response.text.slice(0, 300)}`;
        problems = responseViolations(raw.method, status, response.headers, response.text, requestText);
        if (namesForeign && status >= 200 && status < 300) problems.push(`${status} for another user's resource`);
        if (status === 200 && raw.method === template.route.split(' ')[0] && HARVESTED.has(template.route) && problems.length === 0) {
          harvest(template.route, JSON.parse(response.text));
        }
        code = /"code":"([A-Z_]+)"/.exec(response.text)?.[1] ?? '';
      } catch (error) {
        answer = String(error);
        // A request the server cannot parse (headers over the limit) gets a 400 with a body even
        // when it was a HEAD: the server cannot know the method; Node's client rejects that body.
        const unparsedHead = raw.method === 'HEAD' && /Data after `Connection: close`/.test(answer);
        problems = unparsedHead ? [] : [`no answer: ${answer}`];
      }
      sent += 1;
      const counts = perRoute.get(template.route) ?? {};
      const statusClass = status === 0 ? 'none' : status >= 400 ? `${status} ${code}` : `${Math.floor(status / 100)}xx`;
      counts[statusClass] = (counts[statusClass] ?? 0) + 1;
      perRoute.set(template.route, counts);
      if (problems.length > 0) {
        failures.push({ index, route: template.route, bodyKind: template.body.kind, problem: problems.join('; '), request: describeRequest(raw), answer });
      }
    };

    const integrity: string[] = [];
    try {
      for (let chunkStart = 0; chunkStart < requests.length; chunkStart += CHUNK) {
        const chunkEnd = Math.min(requests.length, chunkStart + CHUNK);
        let next = chunkStart;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (next < chunkEnd) await runOne(next++);
          }),
        );
        integrity.push(...(await checkIntegrity(server.store.db)).map((line) => `after request ${chunkEnd}: ${line}`));
      }
    } finally {
      client.close();
      totals[dialect] = sent;
    }
    const after = await snapshotOf(server.store.db, server.store.usage, bystanderId);

    const coverage = [...perRoute.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([route, counts]) => `  ${route}: ${Object.entries(counts).map(([c, n]) => `${c} ${n}`).join(', ')}`);
    console.log(`[fuzz] ${dialect}: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${SEED})\n${coverage.join('\n')}`);

    const successes = [...perRoute.values()].reduce((sum, counts) => sum + (counts['2xx'] ?? 0), 0);
    console.log(`[fuzz] ${dialect}: ${successes} of ${sent} requests succeeded (2xx)`);
    const problems = report(failures);

    expect.soft(problems, `${failures.length} failed requests (seed ${SEED}), grouped`).toEqual([]);
    expect.soft(integrity, 'integrity').toEqual([]);
    expect.soft(after, "another user's data changed").toEqual(before);
    expect.soft(sent).toBe(PER_STORE);
    for (const route of ROUTE_NAMES) expect.soft(perRoute.get(route), `${route} was never requested`).toBeDefined();
    expect.soft(successes, 'too few requests got through validation to exercise the domain').toBeGreaterThan(PER_STORE / 10);
  }, 300_000);
});
