/**
 * The editor speaks messages, in a real browser against a real `tolk serve`: a Russian plural edited as
 * one field per category (one, few, many, other) with the base term's forms beside and `#` inserted by a
 * chip, saved as one ICU message; a placeholder mismatch shown on its cell and in the "has problems" view.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, BROWSER_AVAILABLE, createUserWithPassword, expectAccessible, launchBrowser, openPage, signInByApi, startWebServer } from './harness.js';

type World = Awaited<ReturnType<typeof startWebServer>>;
const PASSWORD = 'correct horse battery';
const screenshot = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

describe.skipIf(!BROWSER_AVAILABLE)('web app: messages in the editor', () => {
  let world: World;
  let browser: Browser;
  let user: { id: string; apiKey: string; email: string };
  let projectId: string;
  const ids: Record<string, string> = {};

  const call = <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => apiCaller(world, () => user.apiKey)<T>(method, path, body);

  beforeAll(async () => {
    world = await startWebServer();
    browser = await launchBrowser();
    const email = 'messages@example.com';
    user = { ...(await createUserWithPassword(world, { email, password: PASSWORD, firstName: 'Mira', lastName: 'Tester' })), email };
    projectId = (await call<{ id: string }>('POST', '/projects', { name: 'Shop', baseLanguage: 'en', translationLanguages: ['ru', 'ja'] })).id;
    const group = await call<{ id: string }>('POST', `/projects/${projectId}/groups`, { technicalName: 'cart', displayName: 'Cart' });
    const entry = async (technicalName: string, baseTerm: string) => (ids[technicalName] = (await call<{ id: string }>('POST', `/groups/${group.id}/entries`, { technicalName, baseTerm })).id);
    await entry('fileCount', '{count, plural, one {# file} other {# files}}');
    await entry('greeting', 'Hello {name}');
    await call('PUT', `/entries/${ids['greeting']}/translations`, { language: 'ru', translation: 'Привет {user}' });
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  async function editor(): Promise<Page> {
    const { context, page } = await openPage(browser, world);
    await page.setViewportSize({ width: 1400, height: 800 });
    await signInByApi(context, world, user.email, PASSWORD);
    await page.goto(`${world.baseUrl}/projects/${projectId}`);
    await page.getByRole('grid', { name: 'Entries of Cart' }).getByText('fileCount').waitFor();
    return page;
  }

  const translationOf = async (entryId: string, language: string) =>
    (await call<{ translations: Array<{ language: string; translation: string }> }>('GET', `/entries/${entryId}`)).translations.find((item) => item.language === language)?.translation;

  it('edits a Russian plural one field per category, the base term beside, # from a chip, and saves one ICU message', { timeout: 60_000 }, async () => {
    const page = await editor();
    const grid = page.getByRole('grid', { name: 'Entries of Cart' });
    const row = grid.getByRole('row').filter({ hasText: 'fileCount' });
    // columns: technical name, context, base term, Russian, Japanese
    await row.getByRole('gridcell').nth(3).dblclick();
    const plural = page.getByRole('group', { name: 'Russian for fileCount' });
    await plural.waitFor();
    const fields = plural.getByRole('textbox');
    expect(await fields.count()).toBe(4);
    for (const label of ['One', 'Few', 'Many', 'Other']) await plural.getByLabel(label, { exact: true }).waitFor();
    // the base term's form beside each field (English has one and other; few and many show other)
    await plural.getByText('# file', { exact: true }).waitFor();
    expect(await plural.getByText('# files', { exact: true }).count()).toBe(3);
    await expectAccessible(page, 'plural editor');

    const forms: Array<[string, string]> = [['One', ' файл'], ['Few', ' файла'], ['Many', ' файлов'], ['Other', ' файла']];
    for (const [label, text] of forms) {
      const field = plural.getByLabel(label, { exact: true });
      await field.focus();
      await plural.getByRole('button', { name: '#', exact: true }).click();
      await field.press('End');
      await field.pressSequentially(text);
    }
    expect(await plural.getByLabel('Few', { exact: true }).inputValue()).toBe('# файла');
    mkdirSync(dirname(screenshot('plural-editor.png')), { recursive: true });
    await page.screenshot({ path: screenshot('plural-editor.png') });
    await plural.getByLabel('Other', { exact: true }).press('Enter');
    await row.getByText('Saved', { exact: true }).waitFor();
    expect(await translationOf(ids['fileCount']!, 'ru')).toBe('{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}');

    // Japanese has only `other`: one field
    await row.getByRole('gridcell').nth(4).dblclick();
    const japanese = page.getByRole('group', { name: 'Japanese for fileCount' });
    await japanese.waitFor();
    expect(await japanese.getByRole('textbox').count()).toBe(1);
    await japanese.getByLabel('Other', { exact: true }).press('Escape');
  });

  it('shows a placeholder mismatch on its cell and in the "has problems" view, which leads to the entry', { timeout: 60_000 }, async () => {
    const page = await editor();
    const grid = page.getByRole('grid', { name: 'Entries of Cart' });
    const row = grid.getByRole('row').filter({ hasText: 'greeting' });
    await row.getByText(/lacks \{name\} of the base term; uses \{user\}/).waitFor();
    await expectAccessible(page, 'grid with a problem');

    await page.getByRole('button', { name: 'Has problems' }).click();
    const view = page.getByRole('region', { name: 'Problems in Shop' });
    await view.getByRole('button', { name: 'Open cart.greeting' }).first().waitFor();
    await view.getByText(/Placeholders/).first().waitFor();
    await expectAccessible(page, 'problems view');
    await page.screenshot({ path: screenshot('problems.png') });
    await view.getByRole('button', { name: 'Open cart.greeting' }).first().click();
    await grid.getByRole('row').filter({ hasText: 'greeting' }).waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe('2');
  });

  it('does not send a text that is no message: the reason shows under the field', { timeout: 60_000 }, async () => {
    const page = await editor();
    const grid = page.getByRole('grid', { name: 'Entries of Cart' });
    const row = grid.getByRole('row').filter({ hasText: 'greeting' });
    await row.getByRole('gridcell').nth(4).dblclick();
    const field = page.getByLabel('Japanese for greeting');
    await field.fill('こんにちは {{name}}');
    await field.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'write {name}' }).waitFor();
    expect(await translationOf(ids['greeting']!, 'ja')).toBeUndefined();
    // the chip writes the argument as it must be
    await field.fill('こんにちは ');
    await page.getByRole('button', { name: '{name}', exact: true }).click();
    expect(await field.inputValue()).toBe('こんにちは {name}');
    await field.press('Enter');
    await row.getByText('Saved', { exact: true }).waitFor();
    expect(await translationOf(ids['greeting']!, 'ja')).toBe('こんにちは {name}');
  });
});
