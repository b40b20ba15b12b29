/**
 * The small project (the peer's dataset: 2,000 entries × 3 languages, base + 2, in a few groups) and the
 * project that concurrent creates go to, both seeded through the API as a client would.
 */
import { forEachConcurrently } from './api-client.mjs';

export const SMALL_LANGUAGES = ['de', 'fr'];
const SEED_CONCURRENCY = 16;
/** 4 groups (one nested) × 500 entries. */
const GROUPS = [
  { name: 'common', display: 'Common' },
  { name: 'auth', display: 'Authentication' },
  { name: 'login', display: 'Login form', parent: 'auth' },
  { name: 'settings', display: 'Settings' },
];
const ENTRIES_PER_GROUP = 500;
/** Saves of the history entry: issue 32's "a history page of an entry with 1,000 changes". */
const HISTORY_SAVES = 1_000;

/** Texts like real UI strings, with the characters exports must escape (@, {placeholder}, ', ü). */
function baseTermOf(index, group) {
  switch (index % 10) {
    case 0:
      return `Hello {name}, you have item ${index} in ${group}`;
    case 3:
      return `Write to help@example.com about ${group} ${index}`;
    case 5:
      return `Don't lose größe ${index} (xyz)`;
    default:
      return `Label ${index} of the ${group} screen`;
  }
}

const TRANSLATION_PREFIX = { de: 'DE', fr: 'FR' };

/** Creates the small project; returns its id, group ids and entry ids, and the seconds it took. */
export async function seedSmallProject(call) {
  const started = performance.now();
  const project = await call('POST', '/projects', { name: 'Small bench project', baseLanguage: 'en', translationLanguages: SMALL_LANGUAGES });
  const groupIds = {};
  for (const group of GROUPS) {
    const body = { technicalName: group.name, displayName: group.display, ...(group.parent ? { parentId: groupIds[group.parent] } : {}) };
    groupIds[group.name] = (await call('POST', `/projects/${project.id}/groups`, body)).id;
  }
  const planned = GROUPS.flatMap((group, g) =>
    Array.from({ length: ENTRIES_PER_GROUP }, (_, k) => ({ groupId: groupIds[group.name], group: group.name, index: g * ENTRIES_PER_GROUP + k })),
  );
  const entries = new Array(planned.length);
  await forEachConcurrently(planned, SEED_CONCURRENCY, async ({ groupId, group, index }) => {
    const baseTerm = baseTermOf(index, group);
    const body = { technicalName: `term${String(index).padStart(4, '0')}`, baseTerm, ...(index % 4 === 0 ? { contextInfo: `Shown in ${group}` } : {}) };
    entries[index] = { id: (await call('POST', `/groups/${groupId}/entries`, body)).id, baseTerm };
  });
  const translations = entries.flatMap((entry) => SMALL_LANGUAGES.map((language) => ({ entry, language })));
  await forEachConcurrently(translations, SEED_CONCURRENCY, ({ entry, language }) =>
    call('PUT', `/entries/${entry.id}/translations`, { language, translation: `${TRANSLATION_PREFIX[language]} ${entry.baseTerm}` }),
  );
  return {
    projectId: project.id,
    groupIds: Object.values(groupIds),
    entryIds: entries.map((entry) => entry.id),
    languages: SMALL_LANGUAGES,
    seconds: (performance.now() - started) / 1000,
  };
}

/** One entry of the small project with a long history: the history-entry-page scenario reads its newest page. Returns its id. */
export async function seedHistoryEntry(call, small) {
  const historyEntryId = small.entryIds[1];
  for (let i = 0; i < HISTORY_SAVES; i += 1) await call('PUT', `/entries/${historyEntryId}/translations`, { language: 'de', translation: `DE history ${i}` });
  return historyEntryId;
}

/** A separate project whose 5 groups take the concurrent creates, so the small project stays at 2,000 entries. */
export async function seedCreateTarget(call) {
  const project = await call('POST', '/projects', { name: 'Create bench project', baseLanguage: 'en', translationLanguages: ['de'] });
  const groupIds = [];
  for (let i = 0; i < 5; i += 1) {
    groupIds.push((await call('POST', `/projects/${project.id}/groups`, { technicalName: `inbox${i}`, displayName: `Inbox ${i}` })).id);
  }
  return { projectId: project.id, groupIds };
}
