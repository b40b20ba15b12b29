/**
 * The editor's Import dialog in a real browser against a real `tolk serve`: files chosen → the dry run's
 * report (new, changed, conflicts, refused, warnings) → confirm → the project holds the texts; the key
 * style is set in the project settings. Screenshot docs/import.png.
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

    const { context, page } = await openPage(browser, world);
    await page.setViewportSize({ width: 1300, height: 1000 });
    await signInByApi(context, world, user.email, PASSWORD);
    await page.goto(`${world.baseUrl}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import files' });
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
});
