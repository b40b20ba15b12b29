/**
 * The group and entry dialogs apply the server's naming rule for the project's key style
 * (technical-names.ts): under `free` a top-level group named like an i18next namespace in sub-folders
 * (`components/dialog`) can be made and renamed in the browser, a nested one with "/" is refused before
 * it is sent, and an entry takes the app's own key (`log_out`); under camelCase it must be camelCase.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_AVAILABLE, createUserWithPassword, launchBrowser, openPage, signInByApi, startWebServer } from './harness.js';

type World = Awaited<ReturnType<typeof startWebServer>>;
const PASSWORD = 'correct horse battery';

describe.skipIf(!BROWSER_AVAILABLE)('web app: group names of the project key style', () => {
  let world: World;
  let browser: Browser;

  beforeAll(async () => {
    world = await startWebServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  async function call<T>(apiKey: string, method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${world.baseUrl}/api/v1${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /** Whether the dialog's technical name field is valid for the browser (the test's tsconfig has no DOM types). */
  const technicalNameValid = (page: Page) => page.getByRole('dialog').getByLabel('Technical name').evaluate((input) => (input as unknown as { checkValidity(): boolean }).checkValidity());

  it('free: a top-level "components/dialog" is made and renamed in the dialog; "/" below the top level and camelCase-only names are refused by the browser', { timeout: 60_000 }, async () => {
    const user = await createUserWithPassword(world, { email: 'names@example.com', password: PASSWORD });
    const project = await call<{ id: string }>(user.apiKey, 'POST', '/projects', { name: 'Names', baseLanguage: 'en', translationLanguages: ['de'], keyStyle: 'free' });
    const modals = await call<{ id: string }>(user.apiKey, 'POST', `/projects/${project.id}/groups`, { technicalName: 'layout/modals', displayName: 'Modals', parentId: null });
    const { context, page } = await openPage(browser, world);
    await signInByApi(context, world, user.email, PASSWORD);
    await page.goto(`${world.baseUrl}/projects/${project.id}`);
    await page.getByRole('tree', { name: 'Groups' }).waitFor();

    // a new top-level group with "/" (nothing selected: the dialog offers the top level)
    await page.getByRole('button', { name: 'New group' }).click();
    const dialog = page.getByRole('dialog', { name: 'New group' });
    await dialog.getByLabel('Display name').fill('Dialog');
    await dialog.getByLabel('Technical name').fill('components/dialog');
    await dialog.getByLabel('Inside').selectOption({ label: '(top level)' });
    expect(await technicalNameValid(page)).toBe(true);
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('treeitem', { name: 'Dialog' }).waitFor();

    // renaming a namespace group keeps its technical name valid (the old camelCase pattern refused it)
    await page.getByRole('treeitem', { name: 'Modals' }).click();
    await page.getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename group Modals' });
    expect(await technicalNameValid(page)).toBe(true);
    await rename.getByLabel('Display name').fill('Modal windows');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('treeitem', { name: 'Modal windows' }).waitFor();

    // below the top level "/" is refused, free names are taken
    await page.getByRole('button', { name: 'New group' }).click();
    await dialog.getByLabel('Display name').fill('Inner');
    await dialog.getByLabel('Inside').selectOption({ label: 'Modal windows' });
    await dialog.getByLabel('Technical name').fill('inner/part');
    expect(await technicalNameValid(page)).toBe(false);
    await dialog.getByLabel('Technical name').fill('inner_part-2');
    expect(await technicalNameValid(page)).toBe(true);
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('treeitem', { name: 'Inner' }).waitFor();
    const names = async (query = '') => (await call<{ result: { technicalName: string }[] }>(user.apiKey, 'GET', `/projects/${project.id}/groups${query}`)).result.map((group) => group.technicalName).sort();
    expect(await names()).toEqual(['components/dialog', 'layout/modals']);
    expect(await names(`?parentId=${modals.id}`)).toEqual(['inner_part-2']);
  });

  it('the new-entry dialog takes a free key (log_out) in a free project and refuses it in a camelCase one', { timeout: 60_000 }, async () => {
    const user = await createUserWithPassword(world, { email: 'entry-names@example.com', password: PASSWORD });
    const { context, page } = await openPage(browser, world);
    await signInByApi(context, world, user.email, PASSWORD);
    for (const keyStyle of ['free', 'camelCase'] as const) {
      const project = await call<{ id: string }>(user.apiKey, 'POST', '/projects', { name: `Entries ${keyStyle}`, baseLanguage: 'en', translationLanguages: ['de'], keyStyle });
      const group = await call<{ id: string }>(user.apiKey, 'POST', `/projects/${project.id}/groups`, { technicalName: 'menu', displayName: 'Menu', parentId: null });
      await page.goto(`${world.baseUrl}/projects/${project.id}`);
      await page.getByRole('treeitem', { name: 'Menu' }).click();
      await page.getByRole('button', { name: 'New entry' }).click();
      const dialog = page.getByRole('dialog', { name: 'New entry in Menu' });
      const name = dialog.getByLabel('Technical name');
      await name.fill('log_out');
      const valid = await name.evaluate((input) => (input as unknown as { checkValidity(): boolean }).checkValidity());
      expect(valid, keyStyle).toBe(keyStyle === 'free');
      if (keyStyle === 'camelCase') {
        await name.fill('logOut');
        expect(await name.evaluate((input) => (input as unknown as { checkValidity(): boolean }).checkValidity())).toBe(true);
      }
      await dialog.getByLabel('Base term').fill('Log out');
      await dialog.getByRole('button', { name: 'Create entry' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const entries = await call<{ result: { technicalName: string }[] }>(user.apiKey, 'GET', `/groups/${group.id}/entries`);
      expect(entries.result.map((entry) => entry.technicalName)).toEqual([keyStyle === 'free' ? 'log_out' : 'logOut']);
    }
  });
});
