/** The census's cases of imports: JSON (the report against the set) and flutter's ARB files (context info, metadata). */
import { expect } from 'vitest';
import { tarGz } from '../../helpers/archives.js';
import { untar } from '../../helpers/consumers.js';
import { readSnapshot, type CensusChange } from '../../helpers/content-snapshot.js';
import { setTranslation } from '../../helpers/seed.js';
import { IMPORT, NO_SUCH_ID, type CensusCase, type Prepared } from './world.js';

const importTo = (projectId: string, query: string, body: unknown) => ({ method: 'POST', path: `/projects/${projectId}/import?format=json${query}`, body });

/** The report's counts add up to the set's summary (JSON imports change no context info, so entries.updated counts every entry update). */
const reportMatchesSummary: Prepared['check'] = (response, set) => {
  expect(response.body.changeSetId).toBe(set?.id ?? null);
  const { groups, entries, translations } = response.body;
  expect({ created: groups.created + entries.created + translations.created, updated: entries.updated + translations.updated, deleted: 0 }).toEqual(
    set?.summary ?? { created: 0, updated: 0, deleted: 0 },
  );
};

export const importCases: CensusCase[] = [
  {
    operation: IMPORT, name: "a new app: groups, the top-level keys' group, entries, translations (one set, source import)", status: 200, changes: 10, world: { empty: true },
    prepare: async ({ world }) => ({
      source: 'import',
      request: importTo(world.project.id, '', {
        en: { appName: 'App', menu: { open: 'Open', file: { save: 'Save' } }, empty: {} },
        de: { appName: 'Anwendung', menu: { open: 'Öffnen', file: { save: 'Speichern' } } },
      }),
      // groups: '', menu, menu.file, empty; entries: appName, menu.open, menu.file.save; translations: 3 de, none for pt-BR
      check: (response, set) => {
        reportMatchesSummary(response, set);
        expect(set?.summary).toEqual({ created: 10, updated: 0, deleted: 0 });
      },
    }),
  },
  {
    operation: IMPORT, name: 'mode=overwrite: translations and base terms updated, new ones created', status: 200, changes: 4,
    prepare: async ({ server, world, ownerKey }) => {
      await setTranslation(server, ownerKey, world.title.id, 'pt-BR', 'Título');
      return {
        source: 'import',
        request: importTo(world.project.id, '&mode=overwrite', {
          en: { main: { title: 'Heading', sub: { greeting: 'Hello' } } },
          de: { main: { title: 'Überschrift', sub: { greeting: 'Grüß dich' } } },
          'pt-BR': { main: { title: 'Cabeçalho' } },
        }),
        check: (response, set) => {
          reportMatchesSummary(response, set);
          expect(set?.summary).toEqual({ created: 1, updated: 3, deleted: 0 });
        },
      };
    },
  },
  {
    operation: IMPORT, name: "into groups there are: a new sub-group under one, a top-level key beside the stored one", status: 200, changes: 6, world: { topLevel: true },
    prepare: async ({ world }) => ({
      source: 'import',
      // groups main.sub.extra; entries main.sub.extra.deep, tagline; translations de of appName, tagline and deep
      request: importTo(world.project.id, '', { en: { tagline: 'Say it', main: { sub: { extra: { deep: 'Deep' } } } }, de: { appName: 'Anwendung', tagline: 'Sag es', main: { sub: { extra: { deep: 'Tief' } } } } }),
      check: reportMatchesSummary,
    }),
  },
  {
    operation: IMPORT, name: 'skipInvalid: the rest written, the refused item not', status: 200, changes: 1,
    prepare: async ({ world }) => ({
      source: 'import',
      request: importTo(world.project.id, '&skipInvalid=true', { en: { main: { fine: 'Fine', broken: 'Hi {name' } } }),
      check: (response, set) => {
        reportMatchesSummary(response, set);
        expect(response.body.totals.refused).toBe(1);
      },
    }),
  },
  {
    operation: IMPORT, name: 'from the web app (source import, no key)', status: 200, changes: 2,
    prepare: async ({ world }) => ({ caller: 'web', source: 'import', request: importTo(world.project.id, '', { en: { other: { fromWeb: 'Typed' } }, de: { other: { fromWeb: 'Getippt' } } }), check: reportMatchesSummary }),
  },
  {
    operation: IMPORT, name: 'translations only, by a translator', status: 200, changes: 1,
    prepare: async ({ world }) => ({ caller: 'translator', source: 'import', request: importTo(world.project.id, '', { 'pt-BR': { main: { sub: { greeting: 'Oi' } } } }), check: reportMatchesSummary }),
  },
  {
    operation: IMPORT, name: 'what the project holds already', status: 200, changes: 0,
    prepare: async ({ world }) => ({
      request: importTo(world.project.id, '&mode=overwrite', { en: { main: { title: 'Title', sub: { greeting: 'Hello' } } }, de: { main: { sub: { greeting: 'Hallo' } } } }),
      check: reportMatchesSummary,
    }),
  },
  {
    operation: IMPORT, name: 'mode=keep where every text differs: conflicts only', status: 200, changes: 0,
    prepare: async ({ world }) => ({
      request: importTo(world.project.id, '', { en: { main: { sub: { greeting: 'Howdy' } } }, de: { main: { sub: { greeting: 'Tach' } } } }),
      check: (response, set) => {
        reportMatchesSummary(response, set);
        expect(response.body.totals.conflicts).toBe(2);
      },
    }),
  },
  {
    operation: IMPORT, name: 'a dry run', status: 200, changes: 0,
    prepare: async ({ world }) => ({
      request: importTo(world.project.id, '&dryRun=true&mode=overwrite', { en: { main: { fresh: 'Fresh' } }, de: { main: { sub: { greeting: 'Tach' } } } }),
      check: (response) => {
        expect(response.body).toMatchObject({ dryRun: true, changeSetId: null, entries: { created: 1 }, translations: { updated: 1 } });
      },
    }),
  },
  {
    operation: IMPORT, name: 'an item refused (without skipInvalid)', status: 400, changes: 0,
    prepare: async ({ world }) => ({ request: importTo(world.project.id, '', { en: { main: { fine: 'Fine', broken: 'Hi {name' } } }) }),
  },
  {
    operation: IMPORT, name: 'a new entry by a translator', status: 403, changes: 0,
    prepare: async ({ world }) => ({ caller: 'translator', request: importTo(world.project.id, '', { en: { main: { notMine: 'No' } } }) }),
  },
  {
    operation: IMPORT, name: 'no such project', status: 404, changes: 0,
    prepare: async () => ({ request: importTo(NO_SUCH_ID, '', { en: { lost: 'Lost' } }) }),
  },
];

/** A flutter import's archive of ARB files. */
const arbArchive = (files: Record<string, object>) => tarGz(Object.fromEntries(Object.entries(files).map(([name, arb]) => [name, JSON.stringify(arb)])));

/** An app's ARB template: a description (context info) and placeholder metadata (kept as the entry's ARB metadata). */
const ARB_TEMPLATE = {
  '@@locale': 'en',
  homeTitle: 'Home',
  '@homeTitle': { description: 'The first page' },
  itemCount: '{count, plural, =0{No items} other{{count} items}}',
  '@itemCount': { placeholders: { count: { type: 'int', example: '3' } } },
};

const flutterImport = async (projectId: string, query: string, files: Record<string, object>) => ({
  method: 'POST',
  path: `/projects/${projectId}/import?format=flutter${query}`,
  rawBody: await arbArchive(files),
  headers: { 'content-type': 'application/gzip' },
});

export const arbCases: CensusCase[] = [
  {
    operation: IMPORT, name: 'ARB files of a new app (descriptions become context info)', status: 200, changes: 5, world: { empty: true },
    prepare: async ({ world }) => ({
      source: 'import',
      request: await flutterImport(world.project.id, '', { 'app_en.arb': ARB_TEMPLATE, 'app_de.arb': { '@@locale': 'de', homeTitle: 'Start' } }),
    }),
  },
  {
    operation: IMPORT, name: 'ARB overwrite: a new description alone', status: 200, changes: 1, world: { empty: true },
    prepare: async ({ server, world, ownerKey }) => {
      const first = await server.api('POST', `/projects/${world.project.id}/import?format=flutter`, { key: ownerKey, ...(await flutterImport(world.project.id, '', { 'app_en.arb': ARB_TEMPLATE })) });
      expect(first.status, first.text).toBe(200);
      const template = { ...ARB_TEMPLATE, '@homeTitle': { description: 'The start page' } };
      return { source: 'import', request: await flutterImport(world.project.id, '&mode=overwrite', { 'app_en.arb': template }) };
    },
  },
  {
    // the flutter export changes, so the version rises: the entry's change carries the metadata on both sides
    operation: IMPORT, name: 'ARB overwrite: placeholder metadata alone', status: 200, changes: 1, world: { empty: true },
    prepare: async ({ server, world, ownerKey }) => {
      const first = await server.api('POST', `/projects/${world.project.id}/import?format=flutter`, { key: ownerKey, ...(await flutterImport(world.project.id, '', { 'app_en.arb': ARB_TEMPLATE })) });
      expect(first.status, first.text).toBe(200);
      const placeholders = (example: string) => ({ placeholders: { count: { type: 'int', example } } });
      const snapshot = await readSnapshot(server, ownerKey, world.project.id);
      const [entryId, entry] = [...snapshot.entries].find(([, fields]) => fields.technicalName === 'count')!;
      const change: CensusChange = {
        target: 'entry', op: 'update', groupId: entry.groupId, entryId, language: null, key: 'item.count',
        before: { ...entry, arbMetadata: JSON.stringify(placeholders('3')) },
        after: { ...entry, arbMetadata: JSON.stringify(placeholders('5')) },
      };
      return {
        source: 'import',
        unseen: [change],
        request: await flutterImport(world.project.id, '&mode=overwrite', { 'app_en.arb': { ...ARB_TEMPLATE, '@itemCount': placeholders('5') } }),
        check: async () => {
          const exported = await fetch(`${server.baseUrl}/projects/${world.project.id}/export/flutter`, { headers: { authorization: `Bearer ${ownerKey}` } });
          expect(exported.status).toBe(200);
          const files = await untar(Buffer.from(await exported.arrayBuffer()));
          expect(JSON.parse(files.get('app_en.arb')!)['@itemCount']).toEqual(placeholders('5'));
        },
      };
    },
  },
];
