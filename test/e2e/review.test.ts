/**
 * Review in a real browser against a real `tolk serve` (CONTRACT "Review", web app): a reviewer
 * reviews from the keyboard (R); a translator's edit leaves the reviewed text shipping (the cell says
 * so, the release=reviewed export ships it) until the reviewer reviews the new text, after a review
 * of the text as first read is refused (412) and explained; the "needs review" and "outdated" filters;
 * a base term edit shows its translations outdated with the base term's change, a minor edit does
 * not, Confirm clears it; the progress bars split by state. Screenshots docs/review.png,
 * docs/review-changed.png and docs/review-progress.png.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, BROWSER_AVAILABLE, createUserWithPassword, expectAccessible, launchBrowser, openPage, signInByApi, startWebServer } from './harness.js';

type World = Awaited<ReturnType<typeof startWebServer>>;
interface User {
  id: string;
  apiKey: string;
  email: string;
}
interface Translation {
  language: string;
  translation: string;
  state: 'translated' | 'reviewed';
  outdated: boolean;
  reviewedText: string | null;
  reviewedBy: { id: string } | null;
}
type JsonExport = Record<string, Record<string, Record<string, string>>>;
const PASSWORD = 'correct horse battery';
const screenshot = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

describe.skipIf(!BROWSER_AVAILABLE)('web app: review', () => {
  let world: World;
  let browser: Browser;
  let ada: User;
  let rita: User;
  let tom: User;

  const as = (user: User) => <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => apiCaller(world, () => user.apiKey)<T>(method, path, body);
  const german = async (entryId: string): Promise<Translation | undefined> =>
    (await as(ada)<{ translations: Translation[] }>('GET', `/entries/${entryId}`)).translations.find((item) => item.language === 'de');
  const exported = async (projectId: string, release: 'latest' | 'reviewed'): Promise<Record<string, string>> =>
    (await as(ada)<JsonExport>('GET', `/projects/${projectId}/export/json${release === 'reviewed' ? '?release=reviewed' : ''}`)).de!.home!;

  /**
   * Ada's project (en → de) with Rita as a reviewer and Tom as a translator; group Home with
   * farewell (reviewed by Rita), greeting and welcome, each translated by Tom. The grid orders them
   * by name: farewell, greeting, welcome.
   */
  async function newProject(name: string): Promise<{ id: string; entries: Record<'farewell' | 'greeting' | 'welcome', string> }> {
    const call = as(ada);
    const project = await call<{ id: string }>('POST', '/projects', { name, baseLanguage: 'en', translationLanguages: ['de'] });
    for (const [user, role] of [[rita, 'reviewer'], [tom, 'translator']] as const) {
      await call('POST', `/projects/${project.id}/members`, { email: user.email, role });
      await as(user)('POST', `/projects/${project.id}/members/accept`);
    }
    const home = await call<{ id: string }>('POST', `/projects/${project.id}/groups`, { technicalName: 'home', displayName: 'Home' });
    const entries = { farewell: '', greeting: '', welcome: '' };
    for (const [key, base, text] of [['farewell', 'Goodbye', 'Auf Wiedersehen'], ['greeting', 'Hello', 'Hallo'], ['welcome', 'Welcome', 'Willkommen']] as const) {
      entries[key] = (await call<{ id: string }>('POST', `/groups/${home.id}/entries`, { technicalName: key, baseTerm: base })).id;
      await as(tom)('PUT', `/entries/${entries[key]}/translations`, { language: 'de', translation: text });
    }
    await as(rita)('POST', `/entries/${entries.farewell}/translations/review`, { language: 'de' });
    return { id: project.id, entries };
  }

  async function editorOf(user: User, projectId: string): Promise<{ page: Page; grid: Locator }> {
    const { context, page } = await openPage(browser, world);
    await page.setViewportSize({ width: 1280, height: 640 });
    await signInByApi(context, world, user.email, PASSWORD);
    await page.goto(`${world.baseUrl}/projects/${projectId}`);
    const grid = page.getByRole('grid', { name: 'Entries of Home' });
    await grid.getByText('Willkommen', { exact: false }).first().waitFor();
    return { page, grid };
  }

  /** The grid's row of an entry, and its German cell. */
  const rowOf = (grid: Locator, name: string): Locator => grid.getByRole('row').filter({ has: grid.page().getByRole('gridcell', { name, exact: true }) });
  const germanCell = (grid: Locator, name: string): Locator => rowOf(grid, name).getByRole('gridcell').nth(3);
  // a cell's state badges (.ed-state) read "✓ Reviewed", "↻ Outdated": the word beside its icon

  /** Puts the grid's active cell on row `row`, column `col` (from the first cell), the grid focused. */
  async function moveTo(page: Page, grid: Locator, row: number, col: number): Promise<void> {
    await grid.focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Home');
    for (let i = 0; i < row; i++) await page.keyboard.press('ArrowDown');
    for (let i = 0; i < col; i++) await page.keyboard.press('ArrowRight');
  }

  const focusedLabel = (page: Page): Promise<string | null> =>
    page.evaluate(() => {
      const dom = globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } };
      return dom.document.activeElement?.getAttribute('aria-label') ?? null;
    });

  beforeAll(async () => {
    world = await startWebServer();
    browser = await launchBrowser();
    const user = async (first: string, last: string): Promise<User> => {
      const email = `${first.toLowerCase()}@example.com`;
      return { ...(await createUserWithPassword(world, { email, password: PASSWORD, firstName: first, lastName: last })), email };
    };
    ada = await user('Ada', 'Lovelace');
    rita = await user('Rita', 'Reviewer');
    tom = await user('Tom', 'Translator');
    mkdirSync(dirname(screenshot('review.png')), { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it("a reviewer reviews with R; a translator's edit keeps the reviewed text shipping until the new one is reviewed, the stale review refused and explained", { timeout: 120_000 }, async () => {
    const project = await newProject('Review app');
    const { greeting } = project.entries;
    const reviewer = await editorOf(rita, project.id);
    await reviewer.page.getByRole('button', { name: 'Review', exact: true }).waitFor();
    expect(await reviewer.page.getByText('R reviews the active translation.').count()).toBe(1);

    // Rita: the German cell of greeting, R
    await moveTo(reviewer.page, reviewer.grid, 1, 3);
    await reviewer.page.keyboard.press('r');
    await reviewer.page.getByRole('status').filter({ hasText: 'German of greeting reviewed.' }).waitFor();
    await germanCell(reviewer.grid, 'greeting').locator('.ed-state', { hasText: /Reviewed$/ }).waitFor();
    expect(await german(greeting)).toMatchObject({ state: 'reviewed', reviewedBy: { id: rita.id }, translation: 'Hallo' });
    expect(await focusedLabel(reviewer.page)).toBe('Entries of Home');

    // Tom edits the reviewed text in his grid: the cell says the reviewed text still ships
    const translator = await editorOf(tom, project.id);
    expect(await translator.page.getByRole('button', { name: 'Review', exact: true }).count()).toBe(0);
    await moveTo(translator.page, translator.grid, 1, 3);
    await translator.page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(translator.page)).toBe('German for greeting');
    await translator.page.keyboard.press('Control+A');
    await translator.page.keyboard.type('Hallo zusammen');
    await translator.page.keyboard.press('Enter');
    const shipping = germanCell(translator.grid, 'greeting').getByTestId('reviewed-text');
    await shipping.waitFor();
    expect(await shipping.textContent()).toContain('Reviewed text still ships:');
    expect(await shipping.textContent()).toContain('Hallo');
    expect(await germanCell(translator.grid, 'greeting').locator('.ed-state', { hasText: /Reviewed$/ }).count()).toBe(0);
    await expectAccessible(translator.page, 'grid with a reviewed text still shipping');
    expect(await german(greeting)).toMatchObject({ state: 'translated', translation: 'Hallo zusammen', reviewedText: 'Hallo' });
    expect((await exported(project.id, 'reviewed')).greeting).toBe('Hallo');
    expect((await exported(project.id, 'latest')).greeting).toBe('Hallo zusammen');
    await translator.page.context().close();

    // Rita's grid still shows what she reviewed: R again is refused (the text changed), and explained
    await reviewer.grid.focus();
    await reviewer.page.keyboard.press('r');
    const dialog = reviewer.page.getByRole('dialog', { name: 'Changed since you read it: greeting (German)' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('seen-text').textContent()).toBe('Hallo');
    expect(await dialog.getByTestId('stored-text').textContent()).toBe('Hallo zusammen');
    await expectAccessible(reviewer.page, 'review refused: the text changed');
    await dialog.screenshot({ path: screenshot('review-changed.png') });
    expect(await german(greeting)).toMatchObject({ state: 'translated' });
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => focusedLabel(reviewer.page)).toBe('Entries of Home');
    // the row took the stored text
    await germanCell(reviewer.grid, 'greeting').getByText('Hallo zusammen').waitFor();

    // "Needs review": greeting (changed) and welcome (never reviewed), not farewell
    await reviewer.page.getByLabel('Show').selectOption({ label: 'Needs review' });
    await reviewer.page.getByTestId('filter-note').getByText('Entries that need review in German: 2.').waitFor();
    await expect.poll(() => reviewer.grid.getByRole('row').count()).toBe(3);
    expect(await rowOf(reviewer.grid, 'farewell').count()).toBe(0);
    await expectAccessible(reviewer.page, 'grid filtered: needs review');
    await moveTo(reviewer.page, reviewer.grid, 0, 3);
    await reviewer.page.keyboard.press('r');
    await germanCell(reviewer.grid, 'greeting').locator('.ed-state', { hasText: /Reviewed$/ }).waitFor();
    expect(await germanCell(reviewer.grid, 'greeting').getByTestId('reviewed-text').count()).toBe(0);
    expect(await german(greeting)).toMatchObject({ state: 'reviewed', translation: 'Hallo zusammen', reviewedText: null });
    expect((await exported(project.id, 'reviewed')).greeting).toBe('Hallo zusammen');
    // welcome was never reviewed: its reviewed release falls back to the base term
    expect((await exported(project.id, 'reviewed')).welcome).toBe('Welcome');

    // the header's bar, split by state: farewell and greeting reviewed, welcome to review
    const bar = reviewer.page.getByRole('progressbar', { name: 'German: 3 of 3 translated' });
    await expect.poll(() => bar.getAttribute('aria-valuetext')).toBe('3 of 3 translated: 2 reviewed, 1 to review, 0 outdated');
    // and the projects page's card
    await reviewer.page.goto(`${world.baseUrl}/`);
    const card = reviewer.page.getByRole('article').filter({ hasText: 'Review app' });
    await card.getByText('Reviewed: 2').waitFor();
    expect(await card.getByText('To review: 1').count()).toBe(1);
    expect(await card.getByRole('progressbar', { name: 'German (de)' }).getAttribute('aria-valuetext')).toBe('3 of 3 translated: 2 reviewed, 1 to review, 0 outdated');
    await expectAccessible(reviewer.page, 'projects page with progress by state');
    await card.screenshot({ path: screenshot('review-progress.png') });
    await reviewer.page.context().close();
  });

  it('a base term edit shows its translations outdated with the old and new base term; a minor edit does not; Confirm clears it; Unreview withdraws the review; the export menu offers the reviewed texts', { timeout: 120_000 }, async () => {
    const project = await newProject('Outdated app');
    const { farewell, greeting, welcome } = project.entries;
    await as(rita)('POST', `/entries/${greeting}/translations/review`, { language: 'de' });
    // welcome: reviewed, then changed, so its reviewed text still ships
    await as(rita)('POST', `/entries/${welcome}/translations/review`, { language: 'de' });
    await as(tom)('PUT', `/entries/${welcome}/translations`, { language: 'de', translation: 'Herzlich willkommen' });
    const { page, grid } = await editorOf(ada, project.id);

    // greeting's base term: Hello → Hi there
    await moveTo(page, grid, 1, 2);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page)).toBe('Base term (English) for greeting');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Hi there');
    await page.keyboard.press('Enter');
    const cell = germanCell(grid, 'greeting');
    await cell.locator('.ed-state', { hasText: /Outdated$/ }).waitFor();
    const change = cell.getByTestId('base-term-change');
    await change.waitFor();
    expect(await change.locator('del').textContent()).toBe('[removed: Hello]');
    expect(await change.locator('ins').textContent()).toBe('[added: Hi there]');
    expect(await german(greeting)).toMatchObject({ state: 'reviewed', outdated: true });

    // farewell's base term as a minor edit: its reviewed translation stays current
    await moveTo(page, grid, 0, 2);
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { type?: string } | null } }).document.activeElement?.type)).toBe('checkbox');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await grid.getByText('Goodbye!').waitFor();
    await expect.poll(async () => (await as(ada)<{ baseTerm: string }>('GET', `/entries/${farewell}`)).baseTerm).toBe('Goodbye!');
    expect(await german(farewell)).toMatchObject({ state: 'reviewed', outdated: false });
    expect(await germanCell(grid, 'farewell').locator('.ed-state', { hasText: /Outdated$/ }).count()).toBe(0);

    // the three states side by side: reviewed (farewell), reviewed and outdated (greeting), a reviewed text still shipping (welcome)
    await germanCell(grid, 'welcome').getByTestId('reviewed-text').getByText('Willkommen').waitFor();
    await moveTo(page, grid, 1, 3);
    await expectAccessible(page, 'grid with review states');
    await page.screenshot({ path: screenshot('review.png') });

    // "Outdated": only greeting
    await page.getByLabel('Show').selectOption({ label: 'Outdated' });
    await page.getByTestId('filter-note').getByText('Outdated translations into German: 1.').waitFor();
    await expect.poll(() => grid.getByRole('row').count()).toBe(2);
    await rowOf(grid, 'greeting').waitFor();

    // Confirm on the active translation (greeting's, the filter's first row) clears outdated; the review stays
    await moveTo(page, grid, 0, 3);
    await page.getByRole('button', { name: 'Confirm as current' }).click();
    await page.getByRole('status').filter({ hasText: 'German of greeting confirmed as current.' }).waitFor();
    await expect.poll(() => cell.locator('.ed-state', { hasText: /Outdated$/ }).count()).toBe(0);
    expect(await cell.locator('.ed-state', { hasText: /Reviewed$/ }).count()).toBe(1);
    expect(await german(greeting)).toMatchObject({ state: 'reviewed', outdated: false });
    expect(await page.getByRole('button', { name: 'Confirm as current' }).isDisabled()).toBe(true);

    // Unreview withdraws the review: nothing of it ships any more
    await page.getByRole('button', { name: 'Unreview' }).click();
    await page.getByRole('status').filter({ hasText: 'Review of German of greeting withdrawn.' }).waitFor();
    await expect.poll(() => cell.locator('.ed-state', { hasText: /Reviewed$/ }).count()).toBe(0);
    expect(await german(greeting)).toMatchObject({ state: 'translated', reviewedText: null, reviewedBy: null });
    expect((await exported(project.id, 'reviewed')).greeting).toBe('Hi there');

    // the export menu offers the reviewed texts only: its links and its CI lines ask for release=reviewed
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByLabel('Reviewed texts only').check();
    expect(await page.getByRole('link', { name: 'Download json' }).getAttribute('href')).toBe(`/api/v1/projects/${project.id}/export/json?release=reviewed`);
    await page.getByText('--format json --release reviewed --out locales').waitFor();
    await expectAccessible(page, 'export menu: reviewed texts only');
    await page.context().close();
  });
});
