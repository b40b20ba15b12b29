/**
 * The history in a real browser against a real `tolk serve` (CONTRACT "History", web app): a cell's
 * History opened with H (each version with its word diff, Restore of an earlier one); the project's
 * Activity (an import's summary, its revert's dry run with a conflict, the revert of the rest, a redo);
 * the Trash (a group deleted in the editor, restored with its entries). Screenshots docs/history.png,
 * docs/activity.png, docs/trash.png.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, BROWSER_AVAILABLE, createUserWithPassword, expectAccessible, launchBrowser, openPage, signInByApi, startWebServer } from './harness.js';

type World = Awaited<ReturnType<typeof startWebServer>>;
interface User {
  id: string;
  apiKey: string;
  email: string;
}
interface Entry {
  id: string;
  groupId: string;
  translations: { language: string; translation: string }[];
}
const PASSWORD = 'correct horse battery';
const screenshot = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

describe.skipIf(!BROWSER_AVAILABLE)('web app: history, activity and trash', () => {
  let world: World;
  let browser: Browser;
  let ada: User;
  let bob: User;

  const as = (user: User) => <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => apiCaller(world, () => user.apiKey)<T>(method, path, body);
  const textOf = async (entryId: string, language: string) =>
    (await as(ada)<Entry>('GET', `/entries/${entryId}`)).translations.find((item) => item.language === language)?.translation;

  /** A project of Ada's with Bob as an editor, and a group `home`. */
  async function newProject(name: string): Promise<{ id: string; home: string }> {
    const call = as(ada);
    const project = await call<{ id: string }>('POST', '/projects', { name, baseLanguage: 'en', translationLanguages: ['de'] });
    await call('POST', `/projects/${project.id}/members`, { email: bob.email, role: 'editor' });
    await as(bob)('POST', `/projects/${project.id}/members/accept`);
    const home = await call<{ id: string }>('POST', `/projects/${project.id}/groups`, { technicalName: 'home', displayName: 'Home' });
    return { id: project.id, home: home.id };
  }

  async function signedIn(path: string): Promise<Page> {
    const { context, page } = await openPage(browser, world);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInByApi(context, world, ada.email, PASSWORD);
    await page.goto(`${world.baseUrl}${path}`);
    return page;
  }

  const focusedLabel = (page: Page): Promise<string | null> =>
    page.evaluate(() => {
      const dom = globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } };
      return dom.document.activeElement?.getAttribute('aria-label') ?? null;
    });

  beforeAll(async () => {
    world = await startWebServer();
    browser = await launchBrowser();
    ada = { ...(await createUserWithPassword(world, { email: 'ada@example.com', password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace' })), email: 'ada@example.com' };
    bob = { ...(await createUserWithPassword(world, { email: 'bob@example.com', password: PASSWORD, firstName: 'Bob', lastName: 'Builder' })), email: 'bob@example.com' };
    mkdirSync(dirname(screenshot('history.png')), { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it("a cell edited twice shows both versions in its History (H), with a word diff; Restore brings the first back", { timeout: 90_000 }, async () => {
    const project = await newProject('History app');
    const entry = await as(ada)<{ id: string }>('POST', `/groups/${project.home}/entries`, { technicalName: 'greeting', baseTerm: 'Hello dear world' });
    const page = await signedIn(`/projects/${project.id}`);
    const grid = page.getByRole('grid', { name: 'Entries of Home' });
    await grid.getByText('greeting').waitFor();
    await grid.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    for (const text of ['Hallo liebe Welt', 'Hallo schöne neue Welt']) {
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedLabel(page)).toBe('German for greeting');
      await page.keyboard.press('Control+A');
      await page.keyboard.type(text);
      await page.keyboard.press('Enter');
      await expect.poll(() => textOf(entry.id, 'de')).toBe(text);
      // the grid has taken the save's answer before the next edit (under load it lagged the store, and
      // an edit opened meanwhile was closed by it)
      await grid.getByText(text).waitFor();
    }

    await expect.poll(() => focusedLabel(page)).toBe('Entries of Home');
    // the grid shows the saved text before the History reads it as the current one
    await grid.getByText('Hallo schöne neue Welt').waitFor();
    await page.keyboard.press('h');
    const dialog = page.getByRole('dialog', { name: 'History: German of greeting' });
    await dialog.waitFor();
    const versions = dialog.getByRole('list', { name: 'Versions, newest first' }).getByRole('listitem');
    await expect.poll(() => versions.count()).toBe(3);
    const newest = versions.nth(0);
    const first = versions.filter({ hasText: 'Created by Ada Lovelace' });
    expect(await newest.textContent()).toContain('Edited by Ada Lovelace');
    expect(await newest.textContent()).toContain('current');
    // the first version against the current text: "liebe" only there, "schöne neue" only now
    expect(await first.locator('ins').textContent()).toBe('[added: liebe]');
    expect(await first.locator('del').textContent()).toBe('[removed: schöne neue]');
    expect(await versions.nth(2).textContent()).toContain('(no translation)');
    await expectAccessible(page, 'cell history dialog');
    await dialog.screenshot({ path: screenshot('history.png') });

    await first.getByRole('button', { name: /^Restore: Created by Ada Lovelace/ }).click();
    await dialog.getByText('Restored: the cell holds that version again.').waitFor();
    expect(await textOf(entry.id, 'de')).toBe('Hallo liebe Welt');
    // the restore is the newest version now, written by a revert
    await expect.poll(() => versions.nth(0).textContent()).toContain('Restored by a revert');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => focusedLabel(page)).toBe('Entries of Home');
    await grid.getByText('Hallo liebe Welt').waitFor();
    await page.context().close();
  });

  it("a cell's History takes a save made since the grid was read as the current text", { timeout: 90_000 }, async () => {
    const project = await newProject('Stale grid app');
    const entry = await as(ada)<{ id: string }>('POST', `/groups/${project.home}/entries`, { technicalName: 'evening', baseTerm: 'Good evening' });
    await as(ada)('PUT', `/entries/${entry.id}/translations`, { language: 'de', translation: 'Guten Tag' });
    const page = await signedIn(`/projects/${project.id}`);
    const grid = page.getByRole('grid', { name: 'Entries of Home' });
    await grid.getByText('Guten Tag').waitFor();
    // Bob saves while Ada's grid still shows her text
    await as(bob)('PUT', `/entries/${entry.id}/translations`, { language: 'de', translation: 'Guten Abend' });
    await grid.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('h');
    const dialog = page.getByRole('dialog', { name: 'History: German of evening' });
    await dialog.waitFor();
    const versions = dialog.getByRole('list', { name: 'Versions, newest first' }).getByRole('listitem');
    await expect.poll(() => versions.count()).toBe(3);
    expect(await versions.nth(0).textContent()).toContain('Edited by Bob Builder');
    expect(await versions.nth(0).textContent()).toContain('current');
    // Ada's version is diffed against Bob's text, and can be restored
    const adas = versions.filter({ hasText: 'Created by Ada Lovelace' });
    expect(await adas.locator('ins').textContent()).toBe('[added: Tag]');
    expect(await adas.locator('del').textContent()).toBe('[removed: Abend]');
    await page.context().close();
  });

  it('an import is in the Activity; its revert shows the dry run with a conflict first, reverts the rest, and is redone', { timeout: 90_000 }, async () => {
    const project = await newProject('Activity app');
    const call = as(ada);
    const greeting = await call<{ id: string }>('POST', `/groups/${project.home}/entries`, { technicalName: 'greeting', baseTerm: 'Hello' });
    const farewell = await call<{ id: string }>('POST', `/groups/${project.home}/entries`, { technicalName: 'farewell', baseTerm: 'Bye' });
    await call('PUT', `/entries/${greeting.id}/translations`, { language: 'de', translation: 'Hallo' });
    await call('PUT', `/entries/${farewell.id}/translations`, { language: 'de', translation: 'Tschüss' });
    await call('POST', `/projects/${project.id}/import?format=json&mode=overwrite`, {
      en: { home: { greeting: 'Hello', farewell: 'Bye', welcome: 'Welcome' } },
      de: { home: { greeting: 'Servus', farewell: 'Pfiat di', welcome: 'Willkommen' } },
    });
    // Bob changes one imported text afterwards: reverting the import must leave it alone
    await as(bob)('PUT', `/entries/${farewell.id}/translations`, { language: 'de', translation: 'Auf Wiedersehen' });

    const page = await signedIn(`/projects/${project.id}`);
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity: Activity app', level: 1 }).waitFor();
    const importSet = page.getByRole('article').filter({ hasText: 'Ada Lovelace imported' });
    await importSet.getByRole('heading', { name: 'Ada Lovelace imported 3 translations, 1 entry (json)' }).waitFor();
    await importSet.getByRole('button', { name: 'Show the changes' }).click();
    await importSet.getByText('German translation of home.greeting: edited').waitFor();
    await importSet.getByText('entry home.welcome: created').waitFor();
    await expectAccessible(page, 'activity page');

    // the filters: Bob's sets only; imports only; German
    await page.getByLabel('Who').selectOption({ label: 'Bob Builder' });
    await page.getByRole('heading', { name: 'Bob Builder edited through the API: 1 changed' }).waitFor();
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    await page.getByLabel('Who').selectOption({ label: 'Anyone' });
    await page.getByLabel('How').selectOption({ label: 'Imports' });
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    await page.getByLabel('How').selectOption({ label: 'Any way' });
    await page.getByLabel('Language').selectOption({ label: 'German' });
    // the German sets: Ada's two translations, the import, Bob's edit (not the group's or the entries' creates)
    await expect.poll(() => page.getByRole('article').count()).toBe(4);
    await page.getByLabel('Language').selectOption({ label: 'Any language' });

    await importSet.getByRole('button', { name: 'Revert…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Revert the changes Ada Lovelace made on / });
    const report = dialog.getByTestId('revert-report');
    await report.getByText('What the revert would do (nothing written yet)').waitFor();
    await report.getByText('Conflicts (changed since, left alone): 1').waitFor();
    const conflict = report.getByRole('table', { name: 'Conflicts: changed since, never overwritten' }).getByRole('row').filter({ hasText: 'home.farewell' });
    expect(await conflict.textContent()).toContain('Pfiat di');
    expect(await conflict.textContent()).toContain('Auf Wiedersehen');
    expect(await conflict.textContent()).toContain('Bob Builder');
    expect(await textOf(greeting.id, 'de')).toBe('Servus');
    await expectAccessible(page, 'revert dry run');
    await page.screenshot({ path: screenshot('activity.png') });

    await dialog.getByRole('button', { name: 'Revert the rest' }).click();
    await report.getByRole('heading', { name: 'Reverted' }).waitFor();
    await report.getByText('Conflicts (changed since, left alone): 1').waitFor();
    expect(await textOf(greeting.id, 'de')).toBe('Hallo');
    expect(await textOf(farewell.id, 'de')).toBe('Auf Wiedersehen');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await importSet.getByText(/^Reverted by Ada Lovelace on /).waitFor();
    const revertSet = page.getByRole('article').first();
    await revertSet.getByRole('heading', { name: /^Ada Lovelace reverted the changes Ada Lovelace made on .*: 1 changed, 1 deleted$/ }).waitFor();

    // the redo: the revert reverted brings the import's texts back
    await revertSet.getByRole('button', { name: 'Redo…' }).click();
    const redo = page.getByRole('dialog', { name: /^Redo: revert the revert Ada Lovelace made on / });
    await redo.getByText('Conflicts (changed since, left alone): 0').waitFor();
    await redo.getByRole('button', { name: 'Revert', exact: true }).click();
    await redo.getByRole('heading', { name: 'Reverted' }).waitFor();
    expect(await textOf(greeting.id, 'de')).toBe('Servus');
    await redo.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('heading', { name: /^Ada Lovelace undid the revert Ada Lovelace made on .*\(a redo\)/ }).waitFor();
    const groups = await call<{ displayName: string; technicalName: string }[]>('GET', `/projects/${project.id}/groups/summary`);
    expect(groups.map((group) => group.technicalName)).toEqual(['home']);
    await page.context().close();
  });

  it('a group deleted in the editor is in the Trash with its entries; Restore brings it back where it was', { timeout: 90_000 }, async () => {
    const project = await newProject('Trash app');
    const call = as(ada);
    const errors = await call<{ id: string }>('POST', `/projects/${project.id}/groups`, { technicalName: 'errors', displayName: 'Errors' });
    for (const [name, base, de] of [['notFound', 'Not found', 'Nicht gefunden'], ['serverDown', 'Server down', undefined]] as const) {
      const entry = await call<{ id: string }>('POST', `/groups/${errors.id}/entries`, { technicalName: name, baseTerm: base });
      if (de) await call('PUT', `/entries/${entry.id}/translations`, { language: 'de', translation: de });
    }
    const doomed = await call<{ id: string }>('POST', `/groups/${project.home}/entries`, { technicalName: 'oldTitle', baseTerm: 'Old title' });
    await call('DELETE', `/entries/${doomed.id}`);

    const page = await signedIn(`/projects/${project.id}?group=${errors.id}`);
    await page.getByRole('treeitem', { name: 'Errors' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete group Errors?' });
    await confirm.getByText("It can be restored from the project's Trash.").waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByRole('treeitem', { name: 'Errors' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Trash' }).click();
    await page.getByRole('heading', { name: 'Trash: Trash app', level: 1 }).waitFor();
    const rows = page.getByRole('table', { name: 'Deleted groups and entries' }).getByRole('row');
    const group = rows.filter({ hasText: 'errors' });
    await group.getByText('sub-groups: 0, entries: 2, translations: 1').waitFor();
    expect(await group.textContent()).toContain('Ada Lovelace');
    await rows.filter({ hasText: 'home.oldTitle' }).getByText('Old title · translations: 0').waitFor();
    // newest first: the group, then the entry
    expect(await rows.nth(1).textContent()).toContain('errors');
    await expectAccessible(page, 'trash');
    await page.setViewportSize({ width: 1280, height: 420 });
    await page.screenshot({ path: screenshot('trash.png') });

    await group.getByRole('button', { name: 'Restore errors' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Group errors is back, as a new group with what was inside it.' });
    await done.waitFor();
    await expect.poll(() => rows.filter({ hasText: 'errors' }).count()).toBe(0);
    await rows.filter({ hasText: 'home.oldTitle' }).waitFor();
    await done.getByRole('link', { name: 'Open it in the editor' }).click();
    const grid = page.getByRole('grid', { name: 'Entries of Errors' });
    await grid.getByText('Nicht gefunden').waitFor();
    await grid.getByText('serverDown').waitFor();
    await page.context().close();
  });
});
