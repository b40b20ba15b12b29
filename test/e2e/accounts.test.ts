/**
 * The web app's account side in a real browser against a real `tolk serve`: sign-up, sign-in and out,
 * API keys (secret shown once, usable, revocable), the profile's UI language, creating a project,
 * the project settings page and invitations. axe-core checks every page and state visited.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { BROWSER_AVAILABLE, createUserWithPassword, expectAccessible, launchBrowser, openPage, signInByApi, startWebServer, type WebWorld } from './harness.js';

const PASSWORD = 'correct horse battery';
const SCREENSHOT = fileURLToPath(new URL('../../docs/api-keys.png', import.meta.url));
const T = { timeout: 60_000 };

describe.skipIf(!BROWSER_AVAILABLE)('web app: accounts, API keys and projects', () => {
  let world: WebWorld;
  let browser: Browser;
  let userCount = 0;

  beforeAll(async () => {
    world = await startWebServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  async function newUser(firstName = 'Ada'): Promise<{ id: string; apiKey: string; email: string }> {
    userCount += 1;
    return createUserWithPassword(world, { email: `user${userCount}@example.com`, password: PASSWORD, firstName, lastName: 'Tester' });
  }
  async function signedInPage(email: string, path: string): Promise<Page> {
    const { context, page } = await openPage(browser, world);
    await signInByApi(context, world, email, PASSWORD);
    await page.goto(`${world.baseUrl}${path}`);
    return page;
  }
  const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  const callApi = (path: string, key: string, init: { method?: string; body?: unknown } = {}): Promise<Response> =>
    fetch(`${world.baseUrl}/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${key}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : null,
    });
  async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('a first sign-up through the UI lands on the (empty) projects list, signed in', T, async () => {
    const { page } = await openPage(browser, world);
    await page.goto(`${world.baseUrl}/`);
    await h1(page, 'Sign in to tolk');
    await expectAccessible(page, 'sign-in page');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await h1(page, 'Create your tolk account');
    await expectAccessible(page, 'sign-up page');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('E-mail').fill('grace@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await h1(page, 'Projects');
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.getByRole('banner').textContent()).resolves.toContain('Grace Hopper');
    await page.getByText('You have no projects yet.').waitFor();
    await expectAccessible(page, 'projects list, empty');
    await page.reload();
    await h1(page, 'Projects');
    await page.context().close();
  });

  it('signing out shows the sign-in form (also after a reload); signing in returns to the projects list', T, async () => {
    const user = await newUser('Alan');
    const page = await signedInPage(user.email, '/');
    await h1(page, 'Projects');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await h1(page, 'Sign in to tolk');
    await page.reload();
    await h1(page, 'Sign in to tolk');
    await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(0);
    await signInThroughForm(page, user.email, PASSWORD);
    await h1(page, 'Projects');
    await expect(page.getByRole('banner').textContent()).resolves.toContain('Alan Tester');
    await expectAccessible(page, 'projects list after sign-in');
    await page.context().close();
  });

  it('a deep link opened signed out leads to sign-in and then back to the page asked for', T, async () => {
    const user = await newUser();
    const { page } = await openPage(browser, world);
    await page.goto(`${world.baseUrl}/settings/api-keys`);
    await h1(page, 'Sign in to tolk');
    await signInThroughForm(page, user.email, PASSWORD);
    await h1(page, 'API keys');
    expect(new URL(page.url()).pathname).toBe('/settings/api-keys');
    await page.context().close();
  });

  it('a wrong password shows the error and stays signed out', T, async () => {
    const user = await newUser();
    const { page } = await openPage(browser, world);
    await page.goto(`${world.baseUrl}/`);
    await signInThroughForm(page, user.email, 'not the password');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/\S/);
    await expectAccessible(page, 'sign-in page with an error');
    const state = (await page.evaluate(async () => (await fetch('/api/v1/auth/session')).json())) as { user: unknown };
    expect(state.user).toBeNull();
    await page.reload();
    await h1(page, 'Sign in to tolk');
    await page.context().close();
  });

  it('an API key made in the page shows its secret once, works against the API, and stops working when revoked', T, async () => {
    const user = await newUser();
    const page = await signedInPage(user.email, '/settings/api-keys');
    await h1(page, 'API keys');
    await expectAccessible(page, 'API keys page');
    await page.getByLabel('Name').fill('CI pipeline');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('Secret of the new key').inputValue();
    expect(secret).toMatch(/^tolk_/);
    await page.getByText('it will not be shown again').waitFor();
    const row = page.getByRole('cell', { name: 'CI pipeline', exact: true });
    await row.waitFor();
    await expectAccessible(page, 'API keys page with a new secret');
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    expect((await callApi('/info', secret)).status).toBe(200);

    await page.reload();
    await row.waitFor();
    await expect(page.getByLabel('Secret of the new key').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect(await page.evaluate(async () => (await fetch('/api/v1/keys')).text())).not.toContain(secret);

    const revoke = page.getByRole('button', { name: 'Revoke CI pipeline' });
    const dialog = page.getByRole('dialog', { name: 'Revoke API key' });
    await revoke.click();
    await expectAccessible(page, 'revoke confirmation dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await callApi('/info', secret)).status).toBe(200);
    await revoke.click();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await callApi('/info', secret)).status).toBe(401);
    await expectAccessible(page, 'API keys page after revoking');
    await page.context().close();
  });

  it('saving German as the profile locale switches the UI to German', T, async () => {
    const user = await newUser();
    const page = await signedInPage(user.email, '/settings/profile');
    await h1(page, 'Profile');
    await expectAccessible(page, 'profile settings');
    await page.getByLabel('Language and region').fill('de-AT');
    await page.getByLabel('Timezone').selectOption('Europe/Vienna');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await h1(page, 'Profil');
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).textContent()).resolves.toContain('Projekte');
    await expectAccessible(page, 'profile settings in German');
    const profile = (await (await callApi('/info', user.apiKey)).json()) as { locale: string; timezone: string };
    expect(profile).toMatchObject({ locale: 'de-AT', timezone: 'Europe/Vienna' });
    await page.goto(`${world.baseUrl}/settings/password`);
    await h1(page, 'Passwort');
    await expectAccessible(page, 'password settings in German');
    await page.context().close();
  });

  it('a project created through the UI appears in the list with its languages', T, async () => {
    const user = await newUser();
    const page = await signedInPage(user.email, '/');
    await h1(page, 'Projects');
    await page.getByLabel('Project name').fill('Storefront');
    await page.getByLabel('Base language').fill('en');
    const languages = page.getByLabel('Translation languages');
    await languages.fill('de');
    await page.getByRole('button', { name: 'Add language' }).click();
    await languages.fill('French');
    await languages.press('Enter');
    const chosen = page.getByRole('list', { name: 'Chosen languages' });
    await chosen.getByText('German (de)').waitFor();
    await chosen.getByText('French (fr)').waitFor();
    await expectAccessible(page, 'new project form with chosen languages');
    await page.getByRole('button', { name: 'Create project' }).click();

    const card = page.getByRole('article', { name: 'Storefront' });
    await card.getByRole('progressbar', { name: 'German (de)' }).waitFor();
    await card.getByRole('progressbar', { name: 'French (fr)' }).waitFor();
    const href = await card.getByRole('link', { name: 'Storefront' }).getAttribute('href');
    await expectAccessible(page, 'projects list with a project');
    const listed = (await (await callApi('/projects', user.apiKey)).json()) as { result: { id: string; name: string }[] };
    const project = listed.result.find((p) => p.name === 'Storefront');
    expect(project).toMatchObject({ baseLanguage: 'en', translationLanguages: ['de', 'fr'] });
    expect(href).toBe(`/projects/${project?.id}`);
    await page.context().close();
  });

  it('the project settings page offers member invitation to the owner; the invitee accepts it and is offered no management', T, async () => {
    const owner = await newUser('Olga');
    const invitee = await newUser('Vera');
    const created = await callApi('/projects', owner.apiKey, { method: 'POST', body: { name: 'Members test', baseLanguage: 'en', translationLanguages: ['de'] } });
    const project = (await created.json()) as { id: string };

    const page = await signedInPage(owner.email, `/projects/${project.id}/settings`);
    await h1(page, 'Settings of “Members test”');
    await page.getByText('0 of 5 members').waitFor();
    await expect(page.getByRole('link', { name: 'Back to the editor' }).getAttribute('href')).resolves.toBe(`/projects/${project.id}`);
    await expectAccessible(page, 'project settings as owner');
    await page.getByLabel('E-mail of the account').fill(invitee.email);
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('row', { name: new RegExp(invitee.email) }).getByText('Invited').waitFor();
    await expectAccessible(page, 'project settings with an invited member');
    // the invitation's one-time link, shown once with a copy button
    await page.getByRole('heading', { name: `Invitation link for ${invitee.email}` }).waitFor();
    await expect(page.getByLabel('Invitation link', { exact: true }).inputValue()).resolves.toMatch(new RegExp(`/invitations/accept\\?project=${project.id}#token=`));
    await page.getByRole('button', { name: 'Copy link' }).waitFor();
    await page.getByRole('button', { name: 'Delete project' }).click();
    await page.getByRole('dialog', { name: 'Delete project' }).waitFor();
    await expectAccessible(page, 'delete confirmation dialog');
    await page.context().close();

    const home = await signedInPage(invitee.email, '/');
    await home.getByRole('heading', { name: 'Invitations' }).waitFor();
    await expectAccessible(home, 'projects list with an invitation');
    await home.getByRole('button', { name: 'Accept Members test' }).click();
    await home.getByRole('article', { name: 'Members test' }).waitFor();
    await home.goto(`${world.baseUrl}/projects/${project.id}/settings`);
    await home.getByRole('cell', { name: invitee.email }).waitFor();
    await home.getByRole('button', { name: 'Leave project' }).waitFor();
    await expect(home.getByRole('button', { name: 'Invite', exact: true }).count()).resolves.toBe(0);
    await expect(home.getByRole('button', { name: 'Delete project' }).count()).resolves.toBe(0);
    await expect(home.getByLabel('Project name').count()).resolves.toBe(0);
    await expectAccessible(home, 'project settings as a viewer');
    await home.context().close();
  });

  it("an invitation link made for an address without an account: the newcomer signs up through it and lands in the project as its member", T, async () => {
    const owner = await newUser('Ines');
    const created = await callApi('/projects', owner.apiKey, { method: 'POST', body: { name: 'Link test', baseLanguage: 'en', translationLanguages: ['de'] } });
    const project = (await created.json()) as { id: string };
    const page = await signedInPage(owner.email, `/projects/${project.id}/settings`);
    await h1(page, 'Settings of “Link test”');
    await page.getByLabel('E-mail of the account').fill('newcomer@example.com');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = await page.getByLabel('Invitation link', { exact: true }).inputValue();
    await expectAccessible(page, 'project settings with an invitation link');
    await page.context().close();

    // a stranger's browser: sign-in, then sign-up, then back to the link, which accepts and opens the project
    const { page: newcomer } = await openPage(browser, world);
    await newcomer.goto(link);
    await h1(newcomer, 'Sign in to tolk');
    await newcomer.getByRole('link', { name: 'Sign up' }).click();
    await h1(newcomer, 'Create your tolk account');
    await newcomer.getByLabel('First name').fill('New');
    await newcomer.getByLabel('Last name').fill('Comer');
    await newcomer.getByLabel('E-mail').fill('newcomer@example.com');
    await newcomer.getByLabel('Password').fill(PASSWORD);
    await newcomer.getByRole('button', { name: 'Create account' }).click();
    await newcomer.waitForURL(`${world.baseUrl}/projects/${project.id}`);
    const members = (await (await callApi(`/projects/${project.id}/members`, owner.apiKey)).json()) as { result: { email: string; confirmed: boolean }[] };
    expect(members.result).toEqual([expect.objectContaining({ email: 'newcomer@example.com', confirmed: true })]);

    // the link is used up: opened again by someone else, it says so
    await newcomer.context().close();
    const other = await newUser('Otto');
    const again = await signedInPage(other.email, new URL(link).pathname + new URL(link).search + new URL(link).hash);
    await h1(again, 'Accept an invitation');
    await again.getByRole('alert').getByText(/not valid/).waitFor();
    await expectAccessible(again, 'a used invitation link');
    await again.context().close();
  });

  it('a session ended elsewhere (password set from the CLI) leads the open page back to sign-in, and then back to the page', T, async () => {
    const user = await newUser();
    const page = await signedInPage(user.email, '/settings/api-keys');
    await h1(page, 'API keys');
    const reset = await runCli(world.databaseUrl, ['users', 'set-password', '--email', user.email, '--password-stdin'], 'a brand new password\n');
    expect(reset.code, reset.stderr).toBe(0);
    await page.getByLabel('Name').fill('after reset');
    await page.getByRole('button', { name: 'Create key' }).click();
    await h1(page, 'Sign in to tolk');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/settings/api-keys');
    await signInThroughForm(page, user.email, 'a brand new password');
    await h1(page, 'API keys');
    await page.context().close();
  });

  it("the profile shows the day's request budget, and the password page can revoke the API keys with the change", T, async () => {
    const user = await newUser();
    const page = await signedInPage(user.email, '/settings/profile');
    await h1(page, 'Profile');
    const budget = page.getByTestId('budget-left');
    await budget.waitFor();
    expect(await budget.textContent()).toMatch(/^[\d,]+ of 10,000 requests left today$/);
    await expectAccessible(page, 'profile settings with the budget');
    await page.goto(`${world.baseUrl}/settings/password`);
    await h1(page, 'Password');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('another good passphrase');
    await page.getByLabel('Repeat the new password').fill('another good passphrase');
    await page.getByLabel('Also revoke my API keys').check();
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').getByText(/API keys revoked/).waitFor();
    expect((await callApi('/info', user.apiKey)).status).toBe(401);
    await expectAccessible(page, 'password settings after revoking the keys');
    await page.context().close();
  });
});
