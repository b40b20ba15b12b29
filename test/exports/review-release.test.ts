/**
 * Exports of what was reviewed (CONTRACT "Review": `release=reviewed`, `outdated=fallback`), on both
 * stores. One project goes through every case a translation's review can be in, a step at a time;
 * after each step every release's JSON export must hold what the stored review columns say it ships
 * (from the kept rows, caught up through the change log: each step is one entry's change). At the
 * end each release of each format must be byte for byte (member for member) the `latest` export of a
 * twin project that simply holds the texts the contract says ship, and must render them in the real
 * runtimes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flutterKey } from '../../src/exports/flutter/flutter-key.js';
import { untar, VUE_I18N_VERSIONS } from '../helpers/consumers.js';
import { DIALECTS } from '../helpers/dialects.js';
import { renderIcu } from '../helpers/message-rendering.js';
import { createEntry, createGroup, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { checkIntegrity } from '../helpers/integrity.js';

const require = createRequire(import.meta.url);

type Mode = 'latest' | 'reviewed' | 'fallback';
const MODES: Mode[] = ['latest', 'reviewed', 'fallback'];
const QUERY: Record<Mode, string> = { latest: '', reviewed: '?release=reviewed', fallback: '?release=reviewed&outdated=fallback' };
const FORMATS = ['json', 'vue-i18n', 'i18next', 'flutter'] as const;
type Format = (typeof FORMATS)[number];
const ARCHIVES = new Set<Format>(['i18next', 'flutter']);

type Language = 'de' | 'nl';
const LANGUAGES: Language[] = ['de', 'nl'];

type Step =
  | { review: Language }
  | { unreview: Language }
  | { confirm: Language }
  | { save: Language; text: string }
  | { base: string; minorEdit?: boolean };

interface Case {
  name: string;
  base: string;
  texts: Partial<Record<Language, string>>;
  steps: Step[];
  /** what ships per release in each language; a language left out ships the (final) base term */
  ships: Record<Mode, Partial<Record<Language, string>>>;
  /** the counts a plural is rendered with */
  counts?: number[];
}

const FILES_DE = '{count, plural, one {# Datei} other {# Dateien}}';
const FILES_DE_EDITED = '{count, plural, one {Eine Datei} other {# Dateien}}';
const ITEMS_DE = '{count, plural, one {# Artikel} other {# Artikel}}';
const ENTRIES_EN = '{count, plural, one {# entry} other {# entries}}';

const CASES: Case[] = [
  {
    name: 'neverReviewed',
    base: 'Hello',
    texts: { de: 'Hallo', nl: 'Hoi' },
    steps: [{ review: 'nl' }],
    ships: { latest: { de: 'Hallo', nl: 'Hoi' }, reviewed: { nl: 'Hoi' }, fallback: { nl: 'Hoi' } },
  },
  {
    name: 'reviewed',
    base: 'Save',
    texts: { de: 'Speichern', nl: 'Opslaan' },
    steps: [{ review: 'de' }],
    ships: { latest: { de: 'Speichern', nl: 'Opslaan' }, reviewed: { de: 'Speichern' }, fallback: { de: 'Speichern' } },
  },
  {
    name: 'reviewedThenEdited',
    base: 'Open',
    texts: { de: 'Öffnen' },
    steps: [{ review: 'de' }, { save: 'de', text: 'Aufmachen' }],
    ships: { latest: { de: 'Aufmachen' }, reviewed: { de: 'Öffnen' }, fallback: { de: 'Öffnen' } },
  },
  {
    name: 'baseChanged',
    base: 'Close',
    texts: { de: 'Schließen' },
    steps: [{ review: 'de' }, { base: 'Close the window' }],
    ships: { latest: { de: 'Schließen' }, reviewed: { de: 'Schließen' }, fallback: {} },
  },
  {
    name: 'minorEdit',
    base: 'Delte',
    texts: { de: 'Löschen' },
    steps: [{ review: 'de' }, { base: 'Delete', minorEdit: true }],
    ships: { latest: { de: 'Löschen' }, reviewed: { de: 'Löschen' }, fallback: { de: 'Löschen' } },
  },
  {
    name: 'reviewedAgain',
    base: 'Back',
    texts: { de: 'Zurück' },
    steps: [{ review: 'de' }, { base: 'Go back' }, { save: 'de', text: 'Zurückgehen' }, { review: 'de' }],
    ships: { latest: { de: 'Zurückgehen' }, reviewed: { de: 'Zurückgehen' }, fallback: { de: 'Zurückgehen' } },
  },
  {
    name: 'confirmedNotReviewed',
    base: 'Next',
    texts: { de: 'Weiter' },
    steps: [{ review: 'de' }, { base: 'Next step' }, { confirm: 'de' }],
    ships: { latest: { de: 'Weiter' }, reviewed: { de: 'Weiter' }, fallback: {} },
  },
  {
    name: 'editedAfterBaseChange',
    base: 'Print',
    texts: { de: 'Drucken' },
    steps: [{ review: 'de' }, { base: 'Print the page' }, { save: 'de', text: 'Seite drucken' }],
    ships: { latest: { de: 'Seite drucken' }, reviewed: { de: 'Drucken' }, fallback: {} },
  },
  {
    name: 'unreviewed',
    base: 'Cancel',
    texts: { de: 'Abbrechen' },
    steps: [{ review: 'de' }, { unreview: 'de' }],
    ships: { latest: { de: 'Abbrechen' }, reviewed: {}, fallback: {} },
  },
  { name: 'missing', base: 'Help', texts: {}, steps: [], ships: { latest: {}, reviewed: {}, fallback: {} } },
  {
    name: 'fileCount',
    base: '{count, plural, one {# file} other {# files}}',
    texts: { de: FILES_DE },
    steps: [{ review: 'de' }, { save: 'de', text: FILES_DE_EDITED }],
    ships: { latest: { de: FILES_DE_EDITED }, reviewed: { de: FILES_DE }, fallback: { de: FILES_DE } },
    counts: [1, 5],
  },
  {
    name: 'itemCount',
    base: '{count, plural, one {# item} other {# items}}',
    texts: { de: ITEMS_DE },
    steps: [{ review: 'de' }, { base: ENTRIES_EN }],
    ships: { latest: { de: ITEMS_DE }, reviewed: { de: ITEMS_DE }, fallback: {} },
    counts: [1, 5],
  },
];

/** The base term a case ends with. */
function finalBase(item: Case): string {
  let base = item.base;
  for (const step of item.steps) if ('base' in step) base = step.base;
  return base;
}

/** language → entry name → the stored message that ships, per the table. */
function shipped(mode: Mode): Record<string, Record<string, string>> {
  const document: Record<string, Record<string, string>> = { en: {} };
  for (const language of LANGUAGES) document[language] = {};
  for (const item of CASES) {
    document.en![item.name] = finalBase(item);
    for (const language of LANGUAGES) document[language]![item.name] = item.ships[mode][language] ?? finalBase(item);
  }
  return document;
}

/** The README's pluralRules for vue-i18n, taken from its code block (as the message corpus test does). */
function readmePluralRule(): (locale: string) => (choice: number, choicesLength: number) => number {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const block = /```js\n\/\/ tolk-plural-rules\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no tolk-plural-rules block');
  return new Function(`${block[1]}; return tolkPluralRule;`)() as never;
}

describe.each(DIALECTS)('review-aware exports on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let projectId: string;
  const entryIds = new Map<string, string>();

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await server.api(method, path, { key, body });
    expect(response.status, `${method} ${path}: ${response.text.slice(0, 300)}`).toBeLessThan(300);
    return response.body;
  };
  const download = async (project: string, format: Format, query: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.baseUrl}/projects/${project}/export/${format}${query}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    return { status: response.status, etag: response.headers.get('etag'), bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const exportJson = async (mode: Mode) => {
    const response = await download(projectId, 'json', QUERY[mode]);
    expect(response.status, response.bytes.toString('utf8').slice(0, 300)).toBe(200);
    return JSON.parse(response.bytes.toString('utf8')) as Record<string, { app: Record<string, string> }>;
  };
  /** The texts of an export: a JSON document, or an archive's members by name. */
  const contentOf = async (project: string, format: Format, query: string) => {
    const response = await download(project, format, query);
    expect(response.status, response.bytes.toString('utf8').slice(0, 300)).toBe(200);
    return ARCHIVES.has(format) ? Object.fromEntries(await untar(response.bytes)) : response.bytes.toString('utf8');
  };

  async function runStep(entryId: string, step: Step): Promise<void> {
    if ('review' in step) await call('POST', `/entries/${entryId}/translations/review`, { language: step.review });
    else if ('unreview' in step) await call('DELETE', `/entries/${entryId}/translations/review`, { language: step.unreview });
    else if ('confirm' in step) await call('POST', `/entries/${entryId}/translations/confirm`, { language: step.confirm });
    else if ('save' in step) await call('PUT', `/entries/${entryId}/translations`, { language: step.save, translation: step.text });
    else await call('PATCH', `/entries/${entryId}`, { baseTerm: step.base, ...(step.minorEdit ? { minorEdit: true } : {}) });
  }

  /**
   * What each release must ship now, from the stored rows themselves: a translation's text (latest),
   * the text its kept review approved (reviewed), that text only where the review was made against
   * the entry's current base revision (fallback); otherwise the base term.
   */
  async function fromStore(mode: Mode): Promise<Record<string, { app: Record<string, string> }>> {
    const db = server.store.db;
    const entries = await db.selectFrom('entries').select(['id', 'technical_name', 'base_term', 'base_revision']).where('project_id', '=', projectId).execute();
    const translations = await db
      .selectFrom('translations')
      .innerJoin('entries', 'entries.id', 'translations.entry_id')
      .select(['translations.entry_id', 'translations.language', 'translations.translation', 'translations.reviewed_text', 'translations.reviewed_revision'])
      .where('entries.project_id', '=', projectId)
      .execute();
    const result: Record<string, { app: Record<string, string> }> = { en: { app: {} }, de: { app: {} }, nl: { app: {} } };
    for (const entry of entries) {
      for (const language of ['en', ...LANGUAGES]) {
        const row = translations.find((t) => t.entry_id === entry.id && t.language === language);
        let text: string | null | undefined = row?.translation;
        if (mode !== 'latest') text = row?.reviewed_text;
        if (mode === 'fallback' && row && (row.reviewed_revision ?? 0) < Number(entry.base_revision)) text = null;
        result[language]!.app[entry.technical_name] = text ?? entry.base_term;
      }
    }
    return result;
  }

  beforeAll(async () => {
    server = await startServer(dialect);
    key = (await server.user()).apiKey;
    const project = await createProject(server, key, { name: 'Review app', translationLanguages: LANGUAGES });
    projectId = project.id;
    const group = await createGroup(server, key, projectId, 'app');
    for (const item of CASES) {
      const entry = await createEntry(server, key, group.id, item.name, item.base);
      entryIds.set(item.name, entry.id);
      for (const [language, text] of Object.entries(item.texts)) await setTranslation(server, key, entry.id, language, text);
    }
  });
  afterAll(() => server?.close());

  it('after every review, unreview, confirm, save and base term edit, each release holds what the stored review columns ship', async () => {
    // Exported once before the first step: the rows each release reads are kept, and every later
    // export catches them up from the change log (a step changes one entry).
    for (const mode of MODES) expect(await exportJson(mode)).toEqual(await fromStore(mode));
    let steps = 0;
    for (const item of CASES) {
      for (const step of item.steps) {
        await runStep(entryIds.get(item.name)!, step);
        steps += 1;
        for (const mode of MODES) expect(await exportJson(mode), `${mode} after ${item.name} step ${JSON.stringify(step)}`).toEqual(await fromStore(mode));
      }
    }
    expect(steps).toBeGreaterThanOrEqual(20);
    // And what the stored columns ship is what the contract says: the table, as nested JSON.
    for (const mode of MODES) {
      const document = await exportJson(mode);
      const expected = shipped(mode);
      for (const language of ['en', ...LANGUAGES]) expect(document[language], `${mode} ${language}`).toEqual({ app: expected[language] });
    }
  });

  it.each(FORMATS)('%s: each release is the latest export of a project holding exactly the texts it ships (golden)', async (format) => {
    for (const mode of MODES) {
      const twin = await createProject(server, key, { name: 'Review app', translationLanguages: LANGUAGES });
      const group = await createGroup(server, key, twin.id, 'app');
      const texts = shipped(mode);
      for (const item of CASES) {
        const entry = await createEntry(server, key, group.id, item.name, finalBase(item));
        for (const language of LANGUAGES) {
          if (item.ships[mode][language] !== undefined) await setTranslation(server, key, entry.id, language, texts[language]![item.name]!);
        }
      }
      expect(await contentOf(projectId, format, QUERY[mode]), mode).toEqual(await contentOf(twin.id, format, ''));
      await call('DELETE', `/projects/${twin.id}`);
    }
  });

  describe('the real runtimes render what each release ships', () => {
    /** Every (language, entry, count) with the text ICU renders from the message that ships. */
    function renderings(mode: Mode) {
      const texts = shipped(mode);
      return ['en', ...LANGUAGES].flatMap((language) =>
        CASES.flatMap((item) =>
          (item.counts ?? [undefined]).map((count) => {
            const values = count === undefined ? {} : { count };
            return { language, name: item.name, count, values, text: renderIcu(texts[language]![item.name]!, language, values) };
          }),
        ),
      );
    }

    it.each(MODES)('nested JSON through intl-messageformat (%s)', async (mode) => {
      const document = await exportJson(mode);
      for (const r of renderings(mode)) {
        expect(renderIcu(document[r.language]!.app[r.name]!, r.language, r.values), `${r.language} ${r.name} ${r.count}`).toBe(r.text);
      }
    });

    it.each(MODES)('i18next (%s)', async (mode) => {
      const files = (await contentOf(projectId, 'i18next', QUERY[mode])) as Record<string, string>;
      const i18n = i18next.createInstance();
      const resources = Object.fromEntries(['en', ...LANGUAGES].map((language) => [language, { translation: JSON.parse(files[`${language}/translation.json`]!) }]));
      await i18n.init({ lng: 'en', resources, fallbackLng: false });
      for (const r of renderings(mode)) expect(i18n.t(`app.${r.name}`, { ...r.values, lng: r.language }), `${r.language} ${r.name} ${r.count}`).toBe(r.text);
    });

    it.each(VUE_I18N_VERSIONS.flatMap((version) => MODES.map((mode) => [version, mode] as const)))('%s (%s)', async (version, mode) => {
      const messages = JSON.parse((await download(projectId, 'vue-i18n', QUERY[mode])).bytes.toString('utf8'));
      const rule = readmePluralRule();
      const { createI18n } = require(version) as { createI18n: (options: object) => { global: { t: (key: string, named: object, plural?: number) => string } } };
      const pluralRules = Object.fromEntries(['en', ...LANGUAGES].map((language) => [language, rule(language)]));
      for (const language of ['en', ...LANGUAGES]) {
        const { t } = createI18n({ legacy: false, locale: language, messages, pluralRules, missingWarn: false, fallbackWarn: false, warnHtmlMessage: false }).global;
        for (const r of renderings(mode).filter((r) => r.language === language)) {
          const rendered = r.count === undefined ? t(`app.${r.name}`, {}) : t(`app.${r.name}`, r.values, r.count);
          expect(rendered, `${language} ${r.name} ${r.count}`).toBe(r.text);
        }
      }
    });

    it.each(MODES)('Flutter ARB messages through intl-messageformat (%s)', async (mode) => {
      const files = (await contentOf(projectId, 'flutter', QUERY[mode])) as Record<string, string>;
      for (const r of renderings(mode)) {
        const message = JSON.parse(files[`app_${r.language}.arb`]!)[flutterKey(['app', r.name])];
        expect(renderIcu(message, r.language, r.values), `${r.language} ${r.name} ${r.count}`).toBe(r.text);
      }
    });
  });

  describe('ETags and the query', () => {
    let project: string;
    let entryId: string;

    beforeAll(async () => {
      project = (await createProject(server, key, { translationLanguages: ['de'] })).id;
      const group = await createGroup(server, key, project, 'home');
      entryId = (await createEntry(server, key, group.id, 'title', 'Home')).id;
      await setTranslation(server, key, entryId, 'de', 'Startseite');
    });

    it.each(FORMATS)('%s: no release is release=latest (same bytes, same ETag); each release and outdated mode has its own ETag', async (format) => {
      const none = await download(project, format, '');
      const latest = await download(project, format, '?release=latest');
      expect(latest.status).toBe(200);
      expect(latest.etag).toBe(none.etag);
      expect(latest.bytes.equals(none.bytes)).toBe(true);
      const reviewed = await download(project, format, QUERY.reviewed);
      const fallback = await download(project, format, QUERY.fallback);
      const shipping = await download(project, format, '?release=reviewed&outdated=ship');
      expect(new Set([none.etag, reviewed.etag, fallback.etag]).size).toBe(3);
      expect(shipping.etag).toBe(reviewed.etag);
      // Each answers a conditional GET with its own ETag alone.
      expect((await download(project, format, QUERY.reviewed, { 'if-none-match': reviewed.etag! })).status).toBe(304);
      expect((await download(project, format, QUERY.reviewed, { 'if-none-match': none.etag! })).status).toBe(200);
      expect((await download(project, format, '', { 'if-none-match': reviewed.etag! })).status).toBe(200);
    });

    it('a review changes every release\'s ETag: the old one answers 200 with the reviewed text, an unreview 200 again', async () => {
      const before = await download(project, 'json', QUERY.reviewed);
      const latestBefore = await download(project, 'json', '');
      expect(JSON.parse(before.bytes.toString('utf8')).de.home.title).toBe('Home');
      await call('POST', `/entries/${entryId}/translations/review`, { language: 'de' });
      const after = await download(project, 'json', QUERY.reviewed, { 'if-none-match': before.etag! });
      expect(after.status).toBe(200);
      expect(after.etag).not.toBe(before.etag);
      expect(JSON.parse(after.bytes.toString('utf8')).de.home.title).toBe('Startseite');
      expect((await download(project, 'json', '', { 'if-none-match': latestBefore.etag! })).status).toBe(200);
      expect((await download(project, 'json', QUERY.reviewed, { 'if-none-match': after.etag! })).status).toBe(304);

      await call('DELETE', `/entries/${entryId}/translations/review`, { language: 'de' });
      const unreviewed = await download(project, 'json', QUERY.reviewed, { 'if-none-match': after.etag! });
      expect(unreviewed.status).toBe(200);
      expect(JSON.parse(unreviewed.bytes.toString('utf8')).de.home.title).toBe('Home');
    });

    it.each(FORMATS.flatMap((format) => ['?release=published', '?release=REVIEWED', '?release=reviewed&outdated=drop', '?outdated=fallback', '?release=latest&outdated=ship'].map((query) => [format, query] as const)))(
      '%s%s → 400 ERR_VALIDATION',
      async (format, query) => {
        const response = await download(project, format, query);
        expect(response.status).toBe(400);
        expect(JSON.parse(response.bytes.toString('utf8')).code).toBe('ERR_VALIDATION');
      },
    );
  });

  // whatever the tests wrote, the store keeps its invariants (review states among them: tolk doctor's check)
  it('leaves a store whose invariants hold', async () => {
    expect(await checkIntegrity(server.store.db)).toEqual([]);
  });
});
