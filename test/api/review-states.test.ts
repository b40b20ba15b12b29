/**
 * The review state table (CONTRACT "Review"): every transition (save, same save, review, unreview,
 * confirm, base edit, minor edit) from every state a translation can be in, by every role, on both
 * stores. The expected outcome comes from a model written here from the contract's words, not from
 * the implementation: who may do it, what the translation shows after, whether the project changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { addMember, createEntry, createProjectWithGroup } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';
import { checkIntegrity } from '../helpers/integrity.js';

type Role = 'owner' | 'admin' | 'editor' | 'reviewer' | 'translator' | 'viewer';
const ROLES: Role[] = ['owner', 'admin', 'editor', 'reviewer', 'translator', 'viewer'];

const CAN = {
  translate: new Set<Role>(['owner', 'admin', 'editor', 'reviewer', 'translator']),
  review: new Set<Role>(['owner', 'admin', 'editor', 'reviewer']),
  editEntries: new Set<Role>(['owner', 'admin', 'editor']),
};

/** A translation as the model sees it: `kept` is the reviewed text the translation keeps, `reviewer` who reviewed it. */
interface Model {
  text: string;
  state: 'translated' | 'reviewed';
  outdated: boolean;
  kept: string | null;
  reviewer: Role | null;
}

type Transition = 'save' | 'sameSave' | 'review' | 'unreview' | 'confirm' | 'baseEdit' | 'minorEdit';
const TRANSITIONS: Transition[] = ['save', 'sameSave', 'review', 'unreview', 'confirm', 'baseEdit', 'minorEdit'];

/** The states a translation can be in, each reached by the owner from a fresh entry. */
const STARTS: Record<string, Model> = {
  translated: { text: 'Eins', state: 'translated', outdated: false, kept: null, reviewer: null },
  reviewed: { text: 'Eins', state: 'reviewed', outdated: false, kept: 'Eins', reviewer: 'owner' },
  'reviewed, outdated': { text: 'Eins', state: 'reviewed', outdated: true, kept: 'Eins', reviewer: 'owner' },
  'translated, outdated': { text: 'Eins', state: 'translated', outdated: true, kept: null, reviewer: null },
  'edited after review': { text: 'Zwei', state: 'translated', outdated: false, kept: 'Eins', reviewer: 'owner' },
};

/** The contract's rules: the status, and the translation after (unchanged: the same object). */
function expected(start: Model, transition: Transition, role: Role): { status: number; after: Model } {
  const refused = { status: 403, after: start };
  const ok = (after: Model) => ({ status: 200, after });
  switch (transition) {
    case 'save':
      if (!CAN.translate.has(role)) return refused;
      // a different text: translated, current, the kept review stays (it still ships)
      return ok({ ...start, text: `${start.text}!`, state: 'translated', outdated: false });
    case 'sameSave':
      if (!CAN.translate.has(role)) return refused;
      return ok(start);
    case 'review':
      if (!CAN.review.has(role)) return refused;
      if (start.state === 'reviewed' && !start.outdated) return ok(start);
      return ok({ ...start, state: 'reviewed', outdated: false, kept: start.text, reviewer: role });
    case 'unreview':
      if (!CAN.review.has(role)) return refused;
      return ok({ ...start, state: 'translated', kept: null, reviewer: null });
    case 'confirm':
      if (!CAN.translate.has(role)) return refused;
      return ok({ ...start, outdated: false });
    case 'baseEdit':
      if (!CAN.editEntries.has(role)) return refused;
      return ok({ ...start, outdated: true });
    case 'minorEdit':
      if (!CAN.editEntries.has(role)) return refused;
      return ok(start);
  }
}

const same = (a: Model, b: Model) => JSON.stringify(a) === JSON.stringify(b);

describe.each(DIALECTS)('review state table on %s', (dialect) => {
  let server: TestServer;
  const users = {} as Record<Role, TestUser>;
  let projectId: string;
  let groupId: string;
  let entries = 0;

  beforeAll(async () => {
    server = await startServer(dialect);
    for (const role of ROLES) users[role] = await server.user();
    const { project, group } = await createProjectWithGroup(server, users.owner.apiKey, 'main', { translationLanguages: ['de'] });
    projectId = project.id;
    groupId = group.id;
    for (const role of ROLES) if (role !== 'owner') await addMember(server, projectId, users[role].id, role);
  });
  afterAll(() => server?.close());

  const call = (role: Role, method: string, path: string, body: unknown) => server.api(method, path, { key: users[role].apiKey, body });
  const version = async () => (await server.store.db.selectFrom('projects').select('content_version').where('id', '=', projectId).executeTakeFirstOrThrow()).content_version;

  const act = (role: Role, entryId: string, transition: Transition, text: string) => {
    switch (transition) {
      case 'save':
        return call(role, 'PUT', `/entries/${entryId}/translations`, { language: 'de', translation: `${text}!` });
      case 'sameSave':
        return call(role, 'PUT', `/entries/${entryId}/translations`, { language: 'de', translation: text });
      case 'review':
        return call(role, 'POST', `/entries/${entryId}/translations/review`, { language: 'de' });
      case 'unreview':
        return call(role, 'DELETE', `/entries/${entryId}/translations/review`, { language: 'de' });
      case 'confirm':
        return call(role, 'POST', `/entries/${entryId}/translations/confirm`, { language: 'de' });
      case 'baseEdit':
        return call(role, 'PATCH', `/entries/${entryId}`, { baseTerm: `Base ${Math.random()}` });
      case 'minorEdit':
        return call(role, 'PATCH', `/entries/${entryId}`, { baseTerm: `Base ${Math.random()}`, minorEdit: true });
    }
  };

  /** A fresh entry whose German translation is in `start`, reached by the owner through the API. */
  async function entryIn(start: Model): Promise<string> {
    entries += 1;
    const entry = await createEntry(server, users.owner.apiKey, groupId, `entry${entries}`, 'Base');
    const step = async (method: string, path: string, body: unknown) => expect((await call('owner', method, path, body)).status).toBe(200);
    await step('PUT', `/entries/${entry.id}/translations`, { language: 'de', translation: start.kept ?? start.text });
    if (start.kept !== null) await step('POST', `/entries/${entry.id}/translations/review`, { language: 'de' });
    if (start.text !== (start.kept ?? start.text)) await step('PUT', `/entries/${entry.id}/translations`, { language: 'de', translation: start.text });
    if (start.outdated) await step('PATCH', `/entries/${entry.id}`, { baseTerm: 'Base, changed' });
    return entry.id;
  }

  async function shown(entryId: string) {
    const response = await call('owner', 'GET', `/entries/${entryId}`, undefined);
    return response.body.translations.find((t: { language: string }) => t.language === 'de');
  }

  /** What the API shows, in the model's words (the reviewer found among the cast by id). */
  function asModel(translation: any): Model {
    const reviewer = translation.reviewedBy === null ? null : ROLES.find((role) => users[role].id === translation.reviewedBy.id)!;
    return {
      text: translation.translation,
      state: translation.state,
      outdated: translation.outdated,
      kept: translation.reviewedBy === null ? null : (translation.reviewedText ?? translation.translation),
      reviewer,
    };
  }

  for (const [startName, start] of Object.entries(STARTS)) {
    it(`from "${startName}": every transition by every role`, async () => {
      // the starting state itself, as the API shows it
      expect(asModel(await shown(await entryIn(start)))).toEqual(start);
      for (const transition of TRANSITIONS) {
        for (const role of ROLES) {
          const entryId = await entryIn(start);
          const before = await version();
          const response = await act(role, entryId, transition, start.text);
          const want = expected(start, transition, role);
          const label = `${transition} by ${role} from "${startName}"`;
          expect(response.status, `${label}: ${response.text}`).toBe(want.status);
          if (want.status === 403) expect(response.body.code, label).toBe('ERR_FORBIDDEN');
          const after = asModel(await shown(entryId));
          expect(after, label).toEqual(want.after);
          // The project's content version (the exports' ETag) moves exactly when something changed:
          // a base term edit always changes the entry, whatever the translation does.
          const changed = want.status === 200 && (!same(want.after, start) || transition === 'baseEdit' || transition === 'minorEdit');
          expect((await version()) > before, `${label}: version moved`).toBe(changed);
        }
      }
    });
  }

  // whatever the tests wrote, the store keeps its invariants (review states among them: tolk doctor's check)
  it('leaves a store whose invariants hold', async () => {
    expect(await checkIntegrity(server.store.db)).toEqual([]);
  });
});
