/**
 * The editor's Import dialog in a real browser against a real `tolk serve`: files chosen or dropped → the
 * dry run's report (new, changed, conflicts, refused, warnings) → confirm → the project holds the texts;
 * the key style is set in the project settings. Screenshot docs/import.png.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, BROWSER_AVAILABLE, createUserWithPassword, expectAccessible, launchBrowser, openPage, signInByApi, startWebServer } from './harness.js';

type World = Awaited<ReturnType<typeof startWebServer>>;
const PASSWORD = 'correct horse battery';
const screenshot = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

describe.skipIf(!BROWSER_AVAILABLE)('web app: import', () => {
  let world: World;
  let browser: Browser;
  let user: { id: string; apiKey: string; email: string };
  let projectId: string;

  const call = <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => apiCaller(world, () => user.apiKey)<T>(method, path, body);

  /** Signed in, the project's editor open, its Import dialog open. */
  async function openImportDialog(project: string) {
    const { context, page } = await openPage(browser, world);
    await page.setViewportSize({ width: 1300, height: 1000 });
    await signInByApi(context, world, user.email, PASSWORD);
    await page.goto(`${world.baseUrl}/projects/${project}`);
    await page.getByRole('button', { name: 'Import' }).click();
    return { context, page, dialog: page.getByRole('dialog', { name: 'Import files' }) };
  }

  beforeAll(async () => {
    world = await startWebServer();
    browser = await launchBrowser();
    const email = 'importer@example.com';
    user = { ...(await createUserWithPassword(world, { email, password: PASSWORD, firstName: 'Ida', lastName: 'Porter' })), email };
    projectId = (await call<{ id: string }>('POST', '/projects', { name: 'Notes app', baseLanguage: 'en', translationLanguages: ['de'] })).id;
    const group = await call<{ id: string }>('POST', `/projects/${projectId}/groups`, { technicalName: 'home', displayName: 'Home' });
    await call('POST', `/groups/${group.id}/entries`, { technicalName: 'title', baseTerm: 'Home' });
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it('switches the project to free keys in the settings', { timeout: 60_000 }, async () => {
    const { context, page } = await openPage(browser, world);
    await signInByApi(context, world, user.email, PASSWORD);
    await page.goto(`${world.baseUrl}/projects/${projectId}/settings`);
    await page.getByRole('radio', { name: /^Free:/ }).check();
    await page.getByRole('button', { name: 'Save key style' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).first().waitFor();
    expect((await call<{ keyStyle: string }>('GET', `/projects/${projectId}`)).keyStyle).toBe('free');
    await context.close();
  });

  it('shows the dry run of chosen ARB files, then imports them on confirm', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tolk-e2e-import-'));
    writeFileSync(join(dir, 'app_en.arb'), JSON.stringify({
      '@@locale': 'en',
      homeTitle: 'Homepage',
      notesCount: '{count, plural, =0{No notes} =1{One note} other{{count} notes}}',
      '@notesCount': { description: 'Notes on the start page', placeholders: { count: { type: 'int' } } },
      ok: 'OK',
      'bad.key': 'x',
    }));
    writeFileSync(join(dir, 'app_de.arb'), JSON.stringify({ '@@locale': 'de', homeTitle: 'Startseite', notesCount: '{count, plural, =0{Keine Notizen} =1{Eine Notiz} other{{count} Notizen}}', ok: '' }));

    const { context, page, dialog } = await openImportDialog(projectId);
    await dialog.getByLabel('Choose files').setInputFiles([join(dir, 'app_en.arb'), join(dir, 'app_de.arb')]);
    const report = dialog.getByTestId('import-report');
    await report.getByText('What the import would do').waitFor();
    await report.getByText('Conflicts: 1').waitFor();
    await report.getByText('Refused: 1').waitFor();
    await report.getByText('Warnings: 1').waitFor();
    await report.getByRole('table', { name: 'Refused' }).getByText('bad.key').waitFor();
    await report.getByRole('table', { name: 'Conflicts' }).getByText('Homepage').waitFor();
    // nothing written by the dry run
    expect((await call<{ total: number }>('GET', `/projects/${projectId}/groups`)).total).toBe(1);
    await expectAccessible(page, 'import dialog with a dry-run report');
    mkdirSync(dirname(screenshot('import.png')), { recursive: true });
    await dialog.screenshot({ path: screenshot('import.png') });

    // refused keys keep the import from starting until the rest is asked for
    const confirm = dialog.getByRole('button', { name: 'Import', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Import the rest and leave the refused keys out').check();
    await confirm.click();
    await report.getByText('Imported').first().waitFor();

    const json = await call<Record<string, any>>('GET', `/projects/${projectId}/export/json`);
    expect(json['en']).toMatchObject({ home: { title: 'Home' }, notes: { count: '{count, plural, =0 {No notes} =1 {One note} other {{count} notes}}' }, ok: 'OK' });
    expect(json['de'].notes.count).toBe('{count, plural, =0 {Keine Notizen} =1 {Eine Notiz} other {{count} Notizen}}');
    await context.close();
  });

  it('lists the files of a chosen folder read, with their texts, and those not read, with why', { timeout: 60_000 }, async () => {
    const folderProject = (await call<{ id: string }>('POST', '/projects', { name: 'Folder app', baseLanguage: 'en', translationLanguages: ['de'], keyStyle: 'free' })).id;
    const locales = join(mkdtempSync(join(tmpdir(), 'tolk-e2e-folder-')), 'locales');
    const files: Record<string, object | string> = {
      'en/common.json': { save: 'Save', cancel: 'Cancel' },
      'en/components/dialog.json': { title: 'Dialog' },
      'de/common.json': { save: 'Speichern' },
      'README.md': '# How to translate',
    };
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(locales, path)), { recursive: true });
      writeFileSync(join(locales, path), typeof content === 'string' ? content : JSON.stringify(content));
    }

    const { context, page, dialog } = await openImportDialog(folderProject);
    await dialog.getByLabel(/^Or choose a folder/).setInputFiles(locales);
    await dialog.getByText('Files chosen: 4').waitFor();
    const report = dialog.getByTestId('import-report');
    await report.getByText('What the import would do').waitFor();
    expect(await dialog.getByLabel('Format').inputValue()).toBe('i18next');
    const rows = (name: string) => dialog.getByRole('table', { name }).locator('tbody tr').allInnerTexts();
    expect(await rows('Files read: 3')).toEqual(['de/common.json\tde\t1', 'en/common.json\ten\t2', 'en/components/dialog.json\ten\t1']);
    expect(await rows('Files not read: 1')).toEqual(['README.md\toutside the language folders: i18next reads <lng>/<namespace>.json']);
    await expectAccessible(page, 'import dialog listing the files read and not read');

    // a folder of which no file is read: said before anything is sent, every file listed with why
    await dialog.getByLabel('Format').selectOption('flutter');
    await dialog.getByRole('alert').getByText('None of the chosen files is read as flutter').waitFor();
    expect(await dialog.getByTestId('import-report').count()).toBe(0);
    expect((await rows('Files not read: 4')).map((row) => row.split('\t')[1])).toEqual(['not an .arb file', 'not an .arb file', 'not an .arb file', 'not an .arb file']);
    expect((await call<{ total: number }>('GET', `/projects/${folderProject}/groups`)).total).toBe(0);
    await context.close();
  });

  it('counts a dropped file\'s new and changed texts, conflicts, refused keys and warnings, and writes exactly that on confirm', { timeout: 60_000 }, async () => {
    const dropProject = (await call<{ id: string }>('POST', '/projects', { name: 'Drop app', baseLanguage: 'en', translationLanguages: ['de'], keyStyle: 'free' })).id;
    const home = await call<{ id: string }>('POST', `/projects/${dropProject}/groups`, { technicalName: 'home', displayName: 'Home' });
    const entry = (technicalName: string, baseTerm: string) => call<{ id: string }>('POST', `/groups/${home.id}/entries`, { technicalName, baseTerm });
    const translate = (entryId: string, translation: string) => call('PUT', `/entries/${entryId}/translations`, { language: 'de', translation });
    await translate((await entry('title', 'Home')).id, 'Start');
    await entry('subtitle', 'Welcome');
    await translate((await entry('footer', 'Footer')).id, 'Fußzeile');
    const dropped = {
      en: {
        home: {
          title: 'Home', // unchanged
          subtitle: 'Welcome back', // changed: a conflict (keep) or an update (overwrite)
          footer: 'Footer', // unchanged
          help: 'Help', // new entry
          broken: 'Open {item', // refused: not a message
        },
        menu: { open: 'Open {item}' }, // new group and entry
      },
      de: {
        home: {
          title: 'Startseite', // changed: a conflict (keep) or an update (overwrite)
          subtitle: 'Willkommen', // new translation
          footer: 'Fußzeile', // unchanged
          help: '', // not translated: a warning
        },
        menu: { open: 'Öffnen {item}' }, // new translation
      },
    };

    const { context, page, dialog } = await openImportDialog(dropProject);
    // a file dragged in from the desktop: the drop event's DataTransfer holds it
    const dataTransfer = await page.evaluateHandle(({ name, text }) => {
      const window = globalThis as any;
      const transfer = new window.DataTransfer();
      transfer.items.add(new window.File([text], name, { type: 'application/json' }));
      return transfer;
    }, { name: 'messages.json', text: JSON.stringify(dropped) });
    const dropZone = dialog.getByTestId('import-drop');
    await dropZone.dispatchEvent('dragenter', { dataTransfer });
    await dropZone.dispatchEvent('dragover', { dataTransfer });
    await dropZone.dispatchEvent('drop', { dataTransfer });
    await dialog.getByText('Files chosen: 1').waitFor();
    expect(await dialog.getByLabel('Format').inputValue()).toBe('json');

    const report = dialog.getByTestId('import-report');
    const counts = () => report.getByRole('listitem').allTextContents();
    await report.getByText('What the import would do').waitFor();
    expect(await counts()).toEqual(['New groups: 1', 'Entries: 2 new, 0 changed', 'Translations: 2 new, 0 changed', 'Conflicts: 2', 'Refused: 1', 'Warnings: 1']);
    const rows = (name: string) => report.getByRole('table', { name }).locator('tbody tr').allInnerTexts();
    expect(await rows('Conflicts')).toEqual(['home.subtitle\ten\tWelcome\tWelcome back', 'home.title\tde\tStart\tStartseite']);
    expect((await rows('Refused')).map((row) => row.split('\t').slice(0, 2).join(' '))).toEqual(['home.broken en']);
    expect((await rows('Warnings')).map((row) => row.split('\t').slice(0, 2).join(' '))).toEqual(['home.help de']);

    // replacing the stored texts turns the two conflicts into one changed entry and one changed translation
    await dialog.getByLabel('Stored texts that differ').selectOption('overwrite');
    await report.getByText('Conflicts: 0').waitFor();
    expect(await counts()).toEqual(['New groups: 1', 'Entries: 2 new, 1 changed', 'Translations: 2 new, 1 changed', 'Conflicts: 0', 'Refused: 1', 'Warnings: 1']);
    // nothing written by either dry run
    expect(await call('GET', `/projects/${dropProject}/export/json`)).toEqual({
      en: { home: { footer: 'Footer', subtitle: 'Welcome', title: 'Home' } },
      de: { home: { footer: 'Fußzeile', subtitle: 'Welcome', title: 'Start' } },
    });

    await dialog.getByLabel('Import the rest and leave the refused keys out').check();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await report.getByRole('heading', { name: 'Imported' }).waitFor();
    expect(await counts()).toEqual(['New groups: 1', 'Entries: 2 new, 1 changed', 'Translations: 2 new, 1 changed', 'Conflicts: 0', 'Refused: 1', 'Warnings: 1']);

    expect(await call('GET', `/projects/${dropProject}/export/json`)).toEqual({
      en: { home: { footer: 'Footer', help: 'Help', subtitle: 'Welcome back', title: 'Home' }, menu: { open: 'Open {item}' } },
      // `help` is the export's fallback to the base term: its empty text was not imported
      de: { home: { footer: 'Fußzeile', help: 'Help', subtitle: 'Willkommen', title: 'Startseite' }, menu: { open: 'Öffnen {item}' } },
    });
    const untranslated = await call<{ result: { technicalName: string }[] }>('GET', `/projects/${dropProject}/entries/untranslated?languageCode=de`);
    expect(untranslated.result.map((item) => item.technicalName)).toEqual(['help']);
    await context.close();
  });
});
