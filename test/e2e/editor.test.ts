/**
 * The editor at /projects/{id} in a real browser against a real `tolk serve`: groups and entries made
 * in the UI, translating with the keyboard only, the untranslated view, the edit-conflict dialog, what a
 * translator is offered, exports from the menu, and a 10,000-entry group (virtual rows, paged loading).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_AVAILABLE, createUserWithPassword, expectAccessible, launchBrowser, openPage, signInByApi, startWebServer } from './harness.js';

type World = Awaited<ReturnType<typeof startWebServer>>;
interface User {
  id: string;
  apiKey: string;
  email: string;
}
interface Translation {
  language: string;
  translation: string;
}
const PASSWORD = 'correct horse battery';
const SCREENSHOT = fileURLToPath(new URL('../../docs/editor.png', import.meta.url));

describe.skipIf(!BROWSER_AVAILABLE)('web app: the editor', () => {
  let world: World;
  let browser: Browser;
  let users = 0;

  beforeAll(async () => {
    world = await startWebServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  async function newUser(firstName = 'Ada', dailyQuota?: number): Promise<User> {
    users += 1;
    const email = `editor${users}@example.com`;
    return { ...(await createUserWithPassword(world, { email, password: PASSWORD, firstName, lastName: 'Tester', dailyQuota })), email };
  }

  /** The API as a script would call it, with the user's API key. */
  async function call<T>(user: User, method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${user.apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${world.baseUrl}/api/v1${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  const newProject = (owner: User, name: string): Promise<{ id: string }> =>
    call(owner, 'POST', '/projects', { name, baseLanguage: 'en', translationLanguages: ['de', 'fr'] });
  const newGroup = (owner: User, projectId: string, technicalName: string, displayName: string, parentId?: string): Promise<{ id: string }> =>
    call(owner, 'POST', `/projects/${projectId}/groups`, { technicalName, displayName, parentId: parentId ?? null });
  const newEntry = (owner: User, groupId: string, technicalName: string, baseTerm: string, contextInfo?: string): Promise<{ id: string }> =>
    call(owner, 'POST', `/groups/${groupId}/entries`, { technicalName, baseTerm, contextInfo: contextInfo ?? null });
  const translate = (user: User, entryId: string, language: string, translation: string): Promise<unknown> =>
    call(user, 'PUT', `/entries/${entryId}/translations`, { language, translation });
  async function storedText(user: User, entryId: string, language: string): Promise<string | undefined> {
    const entry = await call<{ translations: Translation[] }>(user, 'GET', `/entries/${entryId}`);
    return entry.translations.find((item) => item.language === language)?.translation;
  }

  async function editorOf(user: User, projectId: string, groupId?: string): Promise<Page> {
    const { context, page } = await openPage(browser, world);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInByApi(context, world, user.email, PASSWORD);
    await page.goto(`${world.baseUrl}/projects/${projectId}${groupId ? `?group=${groupId}` : ''}`);
    await page.getByRole('tree', { name: 'Groups' }).or(page.getByText('No groups yet.')).first().waitFor();
    return page;
  }

  /** The accessible label of the focused element (the test's tsconfig has no DOM types, hence the shape). */
  const focusedLabel = (page: Page): Promise<string | null> =>
    page.evaluate(() => {
      const dom = globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } };
      return dom.document.activeElement?.getAttribute('aria-label') ?? null;
    });

  it('groups and entries are created, renamed, moved and deleted through the UI', { timeout: 60_000 }, async () => {
    const owner = await newUser();
    const project = await newProject(owner, 'Shop front');
    const page = await editorOf(owner, project.id);
    await expectAccessible(page, 'editor without groups');

    await page.getByRole('button', { name: 'New group' }).click();
    const groupDialog = page.getByRole('dialog', { name: 'New group' });
    await expectAccessible(page, 'new group dialog');
    await groupDialog.getByLabel('Display name').fill('Home page');
    expect(await groupDialog.getByLabel('Technical name').inputValue()).toBe('homePage');
    await groupDialog.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('treeitem', { name: 'Home page' }).waitFor();

    // a sub-group: the dialog offers the selected group as the parent
    await page.getByRole('button', { name: 'New group' }).click();
    await groupDialog.getByLabel('Display name').fill('Buttons');
    expect(await groupDialog.getByLabel('Inside').locator('option:checked').textContent()).toBe('Home page');
    await groupDialog.getByRole('button', { name: 'Create group' }).click();
    const buttons = page.getByRole('treeitem', { name: 'Buttons' });
    await buttons.waitFor();
    expect(await buttons.getAttribute('aria-level')).toBe('2');

    await page.getByRole('treeitem', { name: 'Home page' }).click();
    await page.getByRole('button', { name: 'New entry' }).click();
    const entryDialog = page.getByRole('dialog', { name: 'New entry in Home page' });
    await expectAccessible(page, 'new entry dialog');
    await entryDialog.getByLabel('Technical name').fill('welcomeTitle');
    await entryDialog.getByLabel('Base term').fill('Welcome to the shop');
    await entryDialog.getByLabel('Context for translators (optional)').fill('Top of the home page');
    await entryDialog.getByRole('button', { name: 'Create entry' }).click();
    const grid = page.getByRole('grid', { name: 'Entries of Home page' });
    await grid.getByRole('row').filter({ hasText: 'welcomeTitle' }).getByText('Top of the home page').waitFor();
    await expectAccessible(page, 'grid with one entry');

    // delete an entry: the one of the active cell, after a confirmation
    await page.getByRole('button', { name: 'New entry' }).click();
    await entryDialog.getByLabel('Technical name').fill('obsoleteText');
    await entryDialog.getByLabel('Base term').fill('Old');
    await entryDialog.getByRole('button', { name: 'Create entry' }).click();
    await grid.getByText('obsoleteText').click();
    await page.getByRole('button', { name: 'Delete obsoleteText' }).click();
    const deleteEntry = page.getByRole('dialog', { name: 'Delete entry' });
    await deleteEntry.getByText('Delete the entry obsoleteText with all its translations?').waitFor();
    await expectAccessible(page, 'delete entry dialog');
    await deleteEntry.getByRole('button', { name: 'Delete entry' }).click();
    await expect.poll(() => grid.getByText('obsoleteText').count()).toBe(0);
    // the grid keeps its size until the reloaded page comes (its rows are blank meanwhile): wait for it
    await expect.poll(() => grid.getAttribute('aria-rowcount')).toBe('2');

    // keyboard in the tree: Down from Home page reaches Buttons, Enter selects it
    await page.getByRole('treeitem', { name: 'Home page' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Home page / Buttons' }).waitFor();
    await page.getByRole('button', { name: 'Rename' }).click();
    const renameDialog = page.getByRole('dialog', { name: 'Rename group Buttons' });
    await expectAccessible(page, 'rename group dialog');
    await renameDialog.getByLabel('Display name').fill('Buttons and links');
    await renameDialog.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('treeitem', { name: 'Buttons and links' }).waitFor();

    await page.getByRole('button', { name: 'Move' }).click();
    const moveDialog = page.getByRole('dialog', { name: 'Move group Buttons and links' });
    await expectAccessible(page, 'move group dialog');
    await moveDialog.getByLabel('New place').selectOption({ label: '(top level)' });
    await moveDialog.getByRole('button', { name: 'Move' }).click();
    await expect.poll(() => page.getByRole('treeitem', { name: 'Buttons and links' }).getAttribute('aria-level')).toBe('1');

    // deleting Home page says what goes with it: here one entry and no sub-groups (Buttons moved away)
    await page.getByRole('treeitem', { name: 'Home page' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const deleteDialog = page.getByRole('dialog', { name: 'Delete group Home page?' });
    await deleteDialog.getByText('sub-groups: 0, entries: 1').waitFor();
    await expectAccessible(page, 'delete group dialog');
    await deleteDialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByRole('treeitem', { name: 'Home page' }).count()).toBe(0);
    const groups = await call<{ displayName: string }[]>(owner, 'GET', `/projects/${project.id}/groups/summary`);
    expect(groups.map((group) => group.displayName)).toEqual(['Buttons and links']);
  });

  it('translates in the grid with the keyboard only: arrows, Enter, type, Enter saves; Ctrl+Enter goes on to the next row', { timeout: 60_000 }, async () => {
    const owner = await newUser();
    const project = await newProject(owner, 'Keyboard');
    const group = await newGroup(owner, project.id, 'home', 'Home');
    const one = await newEntry(owner, group.id, 'entryOne', 'One');
    const two = await newEntry(owner, group.id, 'entryTwo', 'Two');
    const three = await newEntry(owner, group.id, 'entryThree', 'Three');
    const page = await editorOf(owner, project.id);
    const grid = page.getByRole('grid', { name: 'Entries of Home' });
    await grid.getByText('entryOne').waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe('4');

    await grid.focus();
    // rows sort by technical name: entryOne, entryThree, entryTwo; columns: name, context, base term, German
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await focusedLabel(page)).toBe('Entries of Home');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page)).toBe('German for entryOne');
    await expectAccessible(page, 'grid cell being edited');
    await page.keyboard.type('Eins');
    await page.keyboard.press('Enter');
    await grid.getByRole('row').filter({ hasText: 'entryOne' }).getByText('Saved', { exact: true }).waitFor();
    expect(await storedText(owner, one.id, 'de')).toBe('Eins');
    await expect.poll(() => page.getByRole('progressbar', { name: 'German: 1 of 3 translated' }).count()).toBe(1);

    // "Next untranslated" (reached with Shift+Tab from the grid) moves to the next empty German cell; F2 opens it
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page)).toBe('Entries of Home');
    await page.keyboard.press('F2');
    await expect.poll(() => focusedLabel(page)).toBe('German for entryThree');
    await page.keyboard.type('Drei');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => focusedLabel(page)).toBe('German for entryTwo');
    await page.keyboard.type('Zwei');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('zweite Zeile');
    await page.keyboard.press('Enter');
    await grid.getByRole('row').filter({ hasText: 'entryTwo' }).getByText('Saved', { exact: true }).waitFor();
    expect(await storedText(owner, three.id, 'de')).toBe('Drei');
    expect(await storedText(owner, two.id, 'de')).toBe('Zwei\nzweite Zeile');

    // Esc cancels: nothing is sent
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page)).toBe('Base term (English) for entryTwo');
    await page.keyboard.type(' changed');
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedLabel(page)).toBe('Entries of Home');
    expect((await call<{ baseTerm: string }>(owner, 'GET', `/entries/${two.id}`)).baseTerm).toBe('Two');
    await expectAccessible(page, 'grid after saving');

    // the search box filters the grid (technical name or base term)
    await page.getByRole('searchbox', { name: 'Search entries' }).fill('three');
    await expect.poll(() => grid.getAttribute('aria-rowcount')).toBe('2');
    expect(await grid.getByText('entryThree').count()).toBe(1);
    expect(await grid.getByText('entryOne').count()).toBe(0);
  });

  it('lists untranslated entries of the whole project; translating one there removes it', { timeout: 60_000 }, async () => {
    const owner = await newUser();
    const project = await newProject(owner, 'Untranslated');
    const home = await newGroup(owner, project.id, 'home', 'Home');
    const errors = await newGroup(owner, project.id, 'errors', 'Errors');
    const done = await newEntry(owner, home.id, 'doneAlready', 'Done');
    await translate(owner, done.id, 'de', 'Erledigt');
    const missing = await newEntry(owner, errors.id, 'notFound', 'Not found', 'HTTP 404 page');
    const page = await editorOf(owner, project.id);
    await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'German' });
    await page.getByRole('button', { name: 'All untranslated in German' }).click();
    await page.getByRole('heading', { name: 'Untranslated in German' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'notFound' });
    await row.getByText('HTTP 404 page').waitFor();
    expect(await row.textContent()).toContain('Errors');
    expect(await page.getByRole('row').filter({ hasText: 'doneAlready' }).count()).toBe(0);
    await expectAccessible(page, 'untranslated view');

    await page.getByLabel('German for notFound').fill('Nicht gefunden');
    await page.getByLabel('German for notFound').press('Enter');
    await expect.poll(() => row.count()).toBe(0);
    await page.getByText('Every entry is translated into German.').waitFor();
    expect(await storedText(owner, missing.id, 'de')).toBe('Nicht gefunden');
    await expect.poll(() => page.getByRole('progressbar', { name: 'German: 2 of 2 translated' }).count()).toBe(1);
  });

  it('a save that meets a newer stored text opens the conflict dialog with both texts; "use mine" stores mine', { timeout: 60_000 }, async () => {
    const owner = await newUser();
    const project = await newProject(owner, 'Conflicts');
    const group = await newGroup(owner, project.id, 'home', 'Home');
    const entry = await newEntry(owner, group.id, 'greeting', 'Hello');
    await translate(owner, entry.id, 'de', 'Hallo');
    const page = await editorOf(owner, project.id);
    const grid = page.getByRole('grid', { name: 'Entries of Home' });
    await grid.getByText('Hallo').waitFor();
    await grid.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page)).toBe('German for greeting');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Servus');
    await translate(owner, entry.id, 'de', 'Grüß Gott'); // someone else, meanwhile
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Edit conflict: greeting (German)' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('their-text').textContent()).toBe('Grüß Gott');
    expect(await dialog.getByTestId('your-text').textContent()).toBe('Servus');
    expect(await storedText(owner, entry.id, 'de')).toBe('Grüß Gott');
    await expectAccessible(page, 'conflict dialog');
    await dialog.getByRole('button', { name: 'Use my text' }).click();
    await grid.getByRole('row').filter({ hasText: 'greeting' }).getByText('Saved', { exact: true }).waitFor();
    expect(await storedText(owner, entry.id, 'de')).toBe('Servus');
  });

  it('a translator can translate but is offered no new entry and no group editing', { timeout: 60_000 }, async () => {
    const owner = await newUser();
    const translator = await newUser('Tom');
    const project = await newProject(owner, 'Team work');
    const group = await newGroup(owner, project.id, 'home', 'Home');
    const entry = await newEntry(owner, group.id, 'welcome', 'Welcome');
    await call(owner, 'POST', `/projects/${project.id}/members`, { email: translator.email, role: 'translator' });
    await call(translator, 'POST', `/projects/${project.id}/members/accept`);

    const page = await editorOf(translator, project.id);
    const grid = page.getByRole('grid', { name: 'Entries of Home' });
    await grid.getByText('welcome').first().waitFor();
    for (const name of ['New entry', 'New group', 'Rename', 'Move', 'Delete welcome']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    await grid.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter'); // the base term: not editable for a translator
    expect(await grid.getByRole('textbox').count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page)).toBe('German for welcome');
    await page.keyboard.type('Willkommen');
    await page.keyboard.press('Enter');
    await grid.getByText('Saved', { exact: true }).waitFor();
    expect(await storedText(owner, entry.id, 'de')).toBe('Willkommen');
    await expectAccessible(page, 'editor as a translator');
  });

  it('a viewer sees the entries but can open no cell for editing and is offered no editing controls', { timeout: 60_000 }, async () => {
    const owner = await newUser();
    const viewer = await newUser('Vera');
    const project = await newProject(owner, 'Read only');
    const group = await newGroup(owner, project.id, 'home', 'Home');
    const entry = await newEntry(owner, group.id, 'welcome', 'Welcome');
    await translate(owner, entry.id, 'de', 'Willkommen');
    await call(owner, 'POST', `/projects/${project.id}/members`, { email: viewer.email, role: 'viewer' });
    await call(viewer, 'POST', `/projects/${project.id}/members/accept`);
    const page = await editorOf(viewer, project.id);
    const grid = page.getByRole('grid', { name: 'Entries of Home' });
    await grid.getByText('Willkommen').waitFor();
    await grid.focus();
    for (let column = 0; column < 5; column++) {
      await page.keyboard.press('Enter');
      await page.keyboard.press('F2');
      expect(await grid.getByRole('textbox').count()).toBe(0);
      await page.keyboard.press('ArrowRight');
    }
    await grid.getByText('Willkommen').dblclick();
    expect(await grid.getByRole('textbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /New entry|New group|Delete/ }).count()).toBe(0);
    await expectAccessible(page, 'editor as a viewer');
  });

  it('the export menu downloads the JSON export with the translated texts and shows the CI lines', { timeout: 60_000 }, async () => {
    const owner = await newUser();
    const project = await newProject(owner, 'Showcase');
    const home = await newGroup(owner, project.id, 'home', 'Home page');
    const buttons = await newGroup(owner, project.id, 'buttons', 'Buttons', home.id);
    await newGroup(owner, project.id, 'errors', 'Errors');
    const texts: [string, string, string | undefined, string | undefined, string | undefined][] = [
      ['welcomeTitle', 'Welcome to the shop', 'Top of the home page', 'Willkommen im Laden', 'Bienvenue dans la boutique'],
      ['subtitleText', 'Everything for your garden', undefined, 'Alles für Ihren Garten', undefined],
      ['cartSummary', 'Your cart holds {count} items', 'count is a number', undefined, 'Votre panier contient {count} articles'],
      ['checkoutHint', 'Free delivery from 50 €', 'Shown under the cart', 'Kostenlose Lieferung ab 50 €', undefined],
    ];
    for (const [name, base, context, de, fr] of texts) {
      const entry = await newEntry(owner, home.id, name, base, context);
      if (de) await translate(owner, entry.id, 'de', de);
      if (fr) await translate(owner, entry.id, 'fr', fr);
    }
    await newEntry(owner, buttons.id, 'buyNow', 'Buy now');
    const page = await editorOf(owner, project.id, home.id);
    await page.getByRole('grid', { name: 'Entries of Home page' }).getByText('Willkommen im Laden').waitFor();
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });

    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('link', { name: 'Download json' }).waitFor();
    expect(await page.getByText(`${world.baseUrl}/api/v1/projects/${project.id}/export/json -o tolk.json`).count()).toBe(1);
    expect(await page.getByText(`npx tolk pull --url ${world.baseUrl} --project ${project.id} --format json`).count()).toBe(1);
    await expectAccessible(page, 'export menu open');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download json' }).click()]);
    const document = JSON.parse(readFileSync(await download.path(), 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;
    expect(document.de?.home?.welcomeTitle).toBe('Willkommen im Laden');
    expect(document.fr?.home?.cartSummary).toBe('Votre panier contient {count} articles');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('link', { name: 'Download json' }).count()).toBe(0);
  });

  it('a group of 10,000 entries opens quickly and scrolls to its last row with only the visible rows drawn', { timeout: 120_000 }, async () => {
    // Seeding 10,000 entries takes 10,000 requests, sessions' included: more than the default daily quota.
    const owner = await newUser('Ada', 50_000);
    const project = await newProject(owner, 'Big one');
    const small = await newGroup(owner, project.id, 'aSmall', 'A small group');
    await newEntry(owner, small.id, 'onlyEntry', 'Only');
    const big = await newGroup(owner, project.id, 'bigList', 'Big list');
    await seedWithSession(owner, big.id, 10_000);

    const { context, page } = await openPage(browser, world);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInByApi(context, world, owner.email, PASSWORD);
    await page.goto(`${world.baseUrl}/projects/${project.id}`);
    await page.getByRole('grid', { name: 'Entries of A small group' }).getByText('onlyEntry').waitFor();
    const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1);
    console.log(`[e2e-measure] first contentful paint of /projects/{id}: ${Math.round(paint)} ms`);

    const pageRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/groups/${big.id}/entries`)) pageRequests.push(new URL(request.url()).searchParams.get('offset') ?? '');
    });
    const started = Date.now();
    await page.getByRole('treeitem', { name: 'Big list' }).click();
    const grid = page.getByRole('grid', { name: 'Entries of Big list' });
    await grid.getByText('entry00000', { exact: true }).waitFor();
    console.log(`[e2e-measure] click on the 10,000-entry group to its first rows visible: ${Date.now() - started} ms`);
    expect(await grid.getAttribute('aria-rowcount')).toBe('10001');
    expect(await grid.getByRole('row').count()).toBeLessThan(80);
    await expectAccessible(page, 'grid of 10,000 entries');

    const scrolled = Date.now();
    await grid.focus();
    await page.keyboard.press('Control+End');
    await grid.getByText('entry09999', { exact: true }).waitFor();
    console.log(`[e2e-measure] Ctrl+End to the last of 10,000 rows visible: ${Date.now() - scrolled} ms`);
    expect(await grid.getByRole('row', { name: /entry09999/ }).getAttribute('aria-rowindex')).toBe('10001');
    expect(await grid.getByRole('row').count()).toBeLessThan(80);

    // scrolling to the middle loads the page there, and only the pages scrolled to were asked for
    await grid.evaluate((element) => element.scrollTo({ top: element.scrollHeight / 2 }));
    await grid.getByText(/^entry0(49|50)\d\d$/).first().waitFor();
    expect(pageRequests.length).toBeLessThan(10);
    expect(pageRequests).toContain('9900');
  });

  /**
   * 10,000 entries through the API, 20 requests at a time, with the session as the web app does (sessions count
   * against the daily quota like keys, so the owner of this test has a larger one).
   */
  async function seedWithSession(user: User, groupId: string, count: number): Promise<void> {
    const origin = world.baseUrl;
    const signIn = await fetch(`${origin}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    if (!signIn.ok) throw new Error(`sign-in → ${signIn.status}`);
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const cookie = signIn.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < count) {
        const index = next++;
        const name = `entry${String(index).padStart(5, '0')}`;
        const response = await fetch(`${origin}/api/v1/groups/${groupId}/entries`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin, cookie, 'x-csrf-token': csrfToken },
          body: JSON.stringify({ technicalName: name, baseTerm: `Text number ${index}`, contextInfo: index % 7 === 0 ? 'every seventh has context' : null }),
        });
        if (!response.ok) throw new Error(`seeding ${name} → ${response.status} ${await response.text()}`);
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
  }
});
