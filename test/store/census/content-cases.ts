/** The census's cases of the writes to translations, entries, groups and the project (census/world.ts). */
import { expect } from 'vitest';
import { createEntry, createGroup, setTranslation } from '../../helpers/seed.js';
import { CREATE_ENTRY, CREATE_GROUP, DELETE_ENTRY, DELETE_GROUP, DELETE_TRANSLATION, NO_SUCH_ID, PATCH_ENTRY, PATCH_GROUP, PATCH_PROJECT, PUT_TRANSLATION, STALE, type CensusCase, type CensusContext, type Prepared } from './world.js';

const translations = (entryId: string, body: unknown, headers?: Record<string, string>) => ({
  path: `/entries/${entryId}/translations`,
  body,
  ...(headers ? { headers } : {}),
});

export const translationCases: CensusCase[] = [
  {
    operation: PUT_TRANSLATION, name: 'a new translation, by a translator', status: 200, changes: 1,
    prepare: async ({ world }) => ({ caller: 'translator', request: { method: 'PUT', ...translations(world.greeting.id, { language: 'pt-BR', translation: 'Olá' }) } }),
  },
  {
    operation: PUT_TRANSLATION, name: 'a different text, with the current If-Match', status: 200, changes: 1,
    prepare: async ({ server, world, ownerKey }) => {
      const entry = await server.api('GET', `/entries/${world.greeting.id}`, { key: ownerKey });
      const etag = `"${entry.body.translations.find((t: { language: string }) => t.language === 'de').updatedAt}"`;
      return { request: { method: 'PUT', ...translations(world.greeting.id, { language: 'de', translation: 'Hallo!' }, { 'if-match': etag }) } };
    },
  },
  {
    operation: PUT_TRANSLATION, name: 'from the web app (source web, no key)', status: 200, changes: 1,
    prepare: async ({ world }) => ({ caller: 'web', request: { method: 'PUT', ...translations(world.greeting.id, { language: 'de', translation: 'Servus' }) } }),
  },
  {
    operation: PUT_TRANSLATION, name: "a top-level key's translation (its key is the bare name)", status: 200, changes: 1, world: { topLevel: true },
    prepare: async ({ world }) => ({ request: { method: 'PUT', ...translations(world.appName!.id, { language: 'de', translation: 'Anwendung' }) } }),
  },
  {
    operation: PUT_TRANSLATION, name: 'the same text again', status: 200, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'PUT', ...translations(world.greeting.id, { language: 'de', translation: 'Hallo' }) } }),
  },
  {
    operation: PUT_TRANSLATION, name: 'a language the project does not translate into', status: 400, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'PUT', ...translations(world.greeting.id, { language: 'fr', translation: 'Bonjour' }) } }),
  },
  {
    operation: PUT_TRANSLATION, name: 'a message that does not parse', status: 400, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'PUT', ...translations(world.greeting.id, { language: 'de', translation: 'Hallo {name' }) } }),
  },
  {
    operation: PUT_TRANSLATION, name: 'a viewer', status: 403, changes: 0,
    prepare: async ({ world }) => ({ caller: 'viewer', request: { method: 'PUT', ...translations(world.greeting.id, { language: 'de', translation: 'Moin' }) } }),
  },
  {
    operation: PUT_TRANSLATION, name: 'no such entry', status: 404, changes: 0,
    prepare: async () => ({ request: { method: 'PUT', ...translations(NO_SUCH_ID, { language: 'de', translation: 'Moin' }) } }),
  },
  {
    operation: PUT_TRANSLATION, name: 'a stale If-Match', status: 412, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'PUT', ...translations(world.greeting.id, { language: 'de', translation: 'Moin' }, { 'if-match': STALE }) } }),
  },
  {
    operation: PUT_TRANSLATION, name: 'If-None-Match * where there is a translation', status: 412, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'PUT', ...translations(world.greeting.id, { language: 'de', translation: 'Moin' }, { 'if-none-match': '*' }) } }),
  },
  {
    operation: DELETE_TRANSLATION, name: 'a stored translation, by a translator', status: 204, changes: 1,
    prepare: async ({ world }) => ({ caller: 'translator', request: { method: 'DELETE', ...translations(world.greeting.id, { language: 'de' }) } }),
  },
  {
    operation: DELETE_TRANSLATION, name: 'one that is not there', status: 204, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'DELETE', ...translations(world.greeting.id, { language: 'pt-BR' }) } }),
  },
  {
    operation: DELETE_TRANSLATION, name: 'a language the project does not translate into', status: 400, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'DELETE', ...translations(world.greeting.id, { language: 'fr' }) } }),
  },
  {
    operation: DELETE_TRANSLATION, name: 'a viewer', status: 403, changes: 0,
    prepare: async ({ world }) => ({ caller: 'viewer', request: { method: 'DELETE', ...translations(world.greeting.id, { language: 'de' }) } }),
  },
  {
    operation: DELETE_TRANSLATION, name: 'no such entry', status: 404, changes: 0,
    prepare: async () => ({ request: { method: 'DELETE', ...translations(NO_SUCH_ID, { language: 'de' }) } }),
  },
  {
    operation: DELETE_TRANSLATION, name: 'a stale If-Match', status: 412, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'DELETE', ...translations(world.greeting.id, { language: 'de' }, { 'if-match': STALE }) } }),
  },
];

export const entryCases: CensusCase[] = [
  {
    operation: CREATE_ENTRY, name: 'in a sub-group, by an editor', status: 200, changes: 1,
    prepare: async ({ world }) => ({ caller: 'editor', request: { method: 'POST', path: `/groups/${world.sub.id}/entries`, body: { technicalName: 'farewell', baseTerm: 'Bye', contextInfo: 'Leaving' } } }),
  },
  {
    operation: CREATE_ENTRY, name: "in the top-level keys' group (its key is the bare name)", status: 200, changes: 1, world: { topLevel: true },
    prepare: async ({ world }) => ({ request: { method: 'POST', path: `/groups/${world.topLevel!.id}/entries`, body: { technicalName: 'tagline', baseTerm: 'Say it' } } }),
  },
  {
    operation: CREATE_ENTRY, name: 'from the web app', status: 200, changes: 1,
    prepare: async ({ world }) => ({ caller: 'web', request: { method: 'POST', path: `/groups/${world.other.id}/entries`, body: { technicalName: 'fromWeb', baseTerm: 'Typed' } } }),
  },
  {
    operation: CREATE_ENTRY, name: 'a name the group uses', status: 409, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'POST', path: `/groups/${world.main.id}/entries`, body: { technicalName: 'title', baseTerm: 'Clash' } } }),
  },
  {
    operation: CREATE_ENTRY, name: 'a base term that does not parse', status: 400, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'POST', path: `/groups/${world.main.id}/entries`, body: { technicalName: 'broken', baseTerm: 'Hi {name' } } }),
  },
  {
    operation: CREATE_ENTRY, name: 'a translator', status: 403, changes: 0,
    prepare: async ({ world }) => ({ caller: 'translator', request: { method: 'POST', path: `/groups/${world.main.id}/entries`, body: { technicalName: 'notMine', baseTerm: 'No' } } }),
  },
  {
    operation: CREATE_ENTRY, name: 'no such group', status: 404, changes: 0,
    prepare: async () => ({ request: { method: 'POST', path: `/groups/${NO_SUCH_ID}/entries`, body: { technicalName: 'lost', baseTerm: 'Lost' } } }),
  },
  {
    operation: PATCH_ENTRY, name: 'a new name and base term', status: 200, changes: 1,
    prepare: async ({ world }) => ({ request: { method: 'PATCH', path: `/entries/${world.greeting.id}`, body: { technicalName: 'welcome', baseTerm: 'Welcome' } } }),
  },
  {
    operation: PATCH_ENTRY, name: 'the context info alone, then cleared', status: 200, changes: 1,
    prepare: async ({ server, world, ownerKey }) => {
      const set = await server.api('PATCH', `/entries/${world.title.id}`, { key: ownerKey, body: { contextInfo: 'The window title' } });
      expect(set.status, set.text).toBe(200);
      return { caller: 'editor', request: { method: 'PATCH', path: `/entries/${world.title.id}`, body: { contextInfo: null } } };
    },
  },
  {
    operation: PATCH_ENTRY, name: 'a top-level key renamed (its key is the bare new name)', status: 200, changes: 1, world: { topLevel: true },
    prepare: async ({ world }) => ({ caller: 'web', request: { method: 'PATCH', path: `/entries/${world.appName!.id}`, body: { technicalName: 'productName' } } }),
  },
  {
    operation: PATCH_ENTRY, name: 'its current values', status: 200, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'PATCH', path: `/entries/${world.greeting.id}`, body: { technicalName: 'greeting', baseTerm: 'Hello', contextInfo: null } } }),
  },
  {
    operation: PATCH_ENTRY, name: 'nothing to update', status: 400, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'PATCH', path: `/entries/${world.greeting.id}`, body: {} } }),
  },
  {
    operation: PATCH_ENTRY, name: 'a translator', status: 403, changes: 0,
    prepare: async ({ world }) => ({ caller: 'translator', request: { method: 'PATCH', path: `/entries/${world.greeting.id}`, body: { baseTerm: 'Hi' } } }),
  },
  {
    operation: PATCH_ENTRY, name: 'a name the group uses', status: 409, changes: 0,
    prepare: async ({ server, world, ownerKey }) => {
      await createEntry(server, ownerKey, world.main.id, 'heading');
      return { request: { method: 'PATCH', path: `/entries/${world.title.id}`, body: { technicalName: 'heading' } } };
    },
  },
  {
    operation: DELETE_ENTRY, name: 'with its translations (in its before)', status: 204, changes: 1,
    prepare: async ({ server, world, ownerKey }) => {
      await setTranslation(server, ownerKey, world.greeting.id, 'pt-BR', 'Olá');
      return { request: { method: 'DELETE', path: `/entries/${world.greeting.id}` } };
    },
  },
  {
    operation: DELETE_ENTRY, name: 'a translator', status: 403, changes: 0,
    prepare: async ({ world }) => ({ caller: 'translator', request: { method: 'DELETE', path: `/entries/${world.greeting.id}` } }),
  },
  {
    operation: DELETE_ENTRY, name: 'no such entry', status: 404, changes: 0,
    prepare: async () => ({ request: { method: 'DELETE', path: `/entries/${NO_SUCH_ID}` } }),
  },
];

export const groupCases: CensusCase[] = [
  {
    operation: CREATE_GROUP, name: 'at the top level', status: 200, changes: 1,
    prepare: async ({ world }) => ({ request: { method: 'POST', path: `/projects/${world.project.id}/groups`, body: { technicalName: 'settings', displayName: 'Settings' } } }),
  },
  {
    operation: CREATE_GROUP, name: 'under a sub-group, by an editor', status: 200, changes: 1,
    prepare: async ({ world }) => ({ caller: 'editor', request: { method: 'POST', path: `/projects/${world.project.id}/groups`, body: { technicalName: 'deeper', displayName: 'Deeper', parentId: world.sub.id } } }),
  },
  {
    operation: CREATE_GROUP, name: 'a name its parent uses', status: 409, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'POST', path: `/projects/${world.project.id}/groups`, body: { technicalName: 'title', displayName: 'Clash', parentId: world.main.id } } }),
  },
  {
    operation: CREATE_GROUP, name: "under the top-level keys' group", status: 409, changes: 0, world: { topLevel: true },
    prepare: async ({ world }) => ({ request: { method: 'POST', path: `/projects/${world.project.id}/groups`, body: { technicalName: 'nested', displayName: 'Nested', parentId: world.topLevel!.id } } }),
  },
  {
    operation: CREATE_GROUP, name: 'a name the key style refuses', status: 400, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'POST', path: `/projects/${world.project.id}/groups`, body: { technicalName: 'Bad Name', displayName: 'Bad' } } }),
  },
  {
    operation: CREATE_GROUP, name: 'a translator', status: 403, changes: 0,
    prepare: async ({ world }) => ({ caller: 'translator', request: { method: 'POST', path: `/projects/${world.project.id}/groups`, body: { technicalName: 'notMine', displayName: 'No' } } }),
  },
  {
    operation: CREATE_GROUP, name: 'no such parent', status: 404, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'POST', path: `/projects/${world.project.id}/groups`, body: { technicalName: 'lost', displayName: 'Lost', parentId: NO_SUCH_ID } } }),
  },
  {
    operation: PATCH_GROUP, name: 'a rename (its entries keep their fields: one change)', status: 200, changes: 1,
    prepare: async ({ world }) => ({ request: { method: 'PATCH', path: `/groups/${world.sub.id}`, body: { technicalName: 'inner' } } }),
  },
  {
    operation: PATCH_GROUP, name: 'a move under another group', status: 200, changes: 1,
    prepare: async ({ world }) => ({ request: { method: 'PATCH', path: `/groups/${world.sub.id}`, body: { parentId: world.other.id } } }),
  },
  {
    operation: PATCH_GROUP, name: 'a move to the top level, by the web app', status: 200, changes: 1,
    prepare: async ({ world }) => ({ caller: 'web', request: { method: 'PATCH', path: `/groups/${world.sub.id}`, body: { parentId: null } } }),
  },
  {
    operation: PATCH_GROUP, name: 'renamed and moved at once', status: 200, changes: 1,
    prepare: async ({ world }) => ({ caller: 'editor', request: { method: 'PATCH', path: `/groups/${world.sub.id}`, body: { technicalName: 'inner', parentId: world.other.id } } }),
  },
  {
    operation: PATCH_GROUP, name: 'the display name alone', status: 200, changes: 1,
    prepare: async ({ world }) => ({ request: { method: 'PATCH', path: `/groups/${world.main.id}`, body: { displayName: 'Main menu' } } }),
  },
  {
    operation: PATCH_GROUP, name: 'its current values', status: 200, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'PATCH', path: `/groups/${world.sub.id}`, body: { technicalName: 'sub', displayName: 'sub', parentId: world.main.id } } }),
  },
  {
    operation: PATCH_GROUP, name: 'under its own sub-group', status: 409, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'PATCH', path: `/groups/${world.main.id}`, body: { parentId: world.sub.id } } }),
  },
  {
    operation: PATCH_GROUP, name: 'nothing to update', status: 400, changes: 0,
    prepare: async ({ world }) => ({ request: { method: 'PATCH', path: `/groups/${world.main.id}`, body: {} } }),
  },
  {
    operation: PATCH_GROUP, name: 'a translator', status: 403, changes: 0,
    prepare: async ({ world }) => ({ caller: 'translator', request: { method: 'PATCH', path: `/groups/${world.main.id}`, body: { displayName: 'Mine' } } }),
  },
  {
    operation: DELETE_GROUP, name: 'with its sub-groups, entries and translations (one change, the subtree in its before)', status: 204, changes: 1,
    prepare: async ({ server, world, ownerKey }) => {
      const deeper = await createGroup(server, ownerKey, world.project.id, 'deeper', world.sub.id);
      const leaf = await createEntry(server, ownerKey, deeper.id, 'leaf', 'Leaf');
      await setTranslation(server, ownerKey, leaf.id, 'pt-BR', 'Folha');
      await createGroup(server, ownerKey, world.project.id, 'alsoEmpty', world.main.id);
      return { caller: 'editor', request: { method: 'DELETE', path: `/groups/${world.main.id}` } };
    },
  },
  {
    operation: DELETE_GROUP, name: "the top-level keys' group", status: 204, changes: 1, world: { topLevel: true },
    prepare: async ({ world }) => ({ request: { method: 'DELETE', path: `/groups/${world.topLevel!.id}` } }),
  },
  {
    operation: DELETE_GROUP, name: 'a translator', status: 403, changes: 0,
    prepare: async ({ world }) => ({ caller: 'translator', request: { method: 'DELETE', path: `/groups/${world.main.id}` } }),
  },
  {
    operation: DELETE_GROUP, name: 'no such group', status: 404, changes: 0,
    prepare: async () => ({ request: { method: 'DELETE', path: `/groups/${NO_SUCH_ID}` } }),
  },
];

const projectPatch = (body: unknown) => async ({ world }: CensusContext): Promise<Prepared> => ({ request: { method: 'PATCH', path: `/projects/${world.project.id}`, body } });

export const projectCases: CensusCase[] = [
  { operation: PATCH_PROJECT, name: 'a new name', status: 200, changes: 1, prepare: projectPatch({ name: 'Census renamed' }) },
  { operation: PATCH_PROJECT, name: 'a language added and one taken off', status: 200, changes: 1, prepare: projectPatch({ translationLanguages: ['de', 'fr'] }) },
  { operation: PATCH_PROJECT, name: 'the base language', status: 200, changes: 1, prepare: projectPatch({ baseLanguage: 'en-GB' }) },
  { operation: PATCH_PROJECT, name: 'a key style every name fits', status: 200, changes: 1, prepare: projectPatch({ keyStyle: 'free' }) },
  {
    operation: PATCH_PROJECT, name: 'its current values', status: 200, changes: 0,
    prepare: projectPatch({ name: 'Census', baseLanguage: 'en', translationLanguages: ['de', 'pt-BR'], keyStyle: 'camelCase' }),
  },
  { operation: PATCH_PROJECT, name: 'nothing to update', status: 400, changes: 0, prepare: projectPatch({}) },
  { operation: PATCH_PROJECT, name: 'the base language among the translation languages', status: 400, changes: 0, prepare: projectPatch({ baseLanguage: 'de' }) },
  {
    operation: PATCH_PROJECT, name: 'a key style a name breaks', status: 409, changes: 0,
    prepare: async (context) => {
      const { server, ownerKey, world } = context;
      const free = await server.api('PATCH', `/projects/${world.project.id}`, { key: ownerKey, body: { keyStyle: 'free' } });
      expect(free.status, free.text).toBe(200);
      await createEntry(server, ownerKey, world.other.id, 'two_words');
      return projectPatch({ keyStyle: 'camelCase' })(context);
    },
  },
  {
    operation: PATCH_PROJECT, name: 'an editor', status: 403, changes: 0,
    prepare: async (context) => ({ ...(await projectPatch({ name: 'Not mine' })(context)), caller: 'editor' }),
  },
];
