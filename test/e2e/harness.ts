/**
 * End-to-end harness: a real `tolk serve` process (built CLI, built web app) on a temporary SQLite
 * store, driven by Debian's Chromium through playwright-core, with axe-core checking every page.
 */
import axe from 'axe-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServerProcess } from '../helpers/access.js';
import { runCli } from '../helpers/cli.js';

export type { Browser, BrowserContext, Page };

/** Debian's Chromium; `.ci/run` installs the package when it is missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser tests can run. Without Chromium they are skipped with a printed reason (see
 * global-setup.ts), unless TOLK_E2E_REQUIRED=1 (set by .ci/run), where a missing browser fails them.
 */
export const BROWSER_AVAILABLE = existsSync(CHROMIUM) || process.env.TOLK_E2E_REQUIRED === '1';
/** Without the background-networking flags, Chromium's calls home fail loudly on this closed network. */
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

export interface WebWorld {
  /** the server's origin, e.g. http://127.0.0.1:41234 (the API is under /api/v1) */
  baseUrl: string;
  databaseUrl: string;
  close(): Promise<void>;
}

/** Starts `tolk serve` on a fresh SQLite store in a temporary directory. */
export async function startWebServer(options: { env?: Record<string, string> } = {}): Promise<WebWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'tolk-e2e-'));
  const databaseUrl = `sqlite:${join(dir, 'tolk.db')}`;
  const server = await startServerProcess(databaseUrl, options.env);
  return {
    baseUrl: server.baseUrl.replace(/\/api\/v1$/, ''),
    databaseUrl,
    close: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PasswordUser {
  id: string;
  email: string;
  password: string;
  apiKey: string;
}

/** Creates a user who can sign in with `password` (through `tolk users create --password-stdin`). */
export async function createUserWithPassword(
  world: WebWorld,
  user: { email: string; password: string; firstName?: string; lastName?: string; locale?: string; dailyQuota?: number },
): Promise<PasswordUser> {
  const args = ['users', 'create', '--email', user.email, '--first-name', user.firstName ?? 'Test', '--last-name', user.lastName ?? 'User', '--password-stdin'];
  if (user.locale) args.push('--locale', user.locale);
  if (user.dailyQuota !== undefined) args.push('--daily-quota', String(user.dailyQuota));
  const result = await runCli(world.databaseUrl, args, `${user.password}\n`);
  if (result.code !== 0) throw new Error(`users create failed: ${result.stderr}`);
  const created = JSON.parse(result.stdout) as { id: string; apiKey: string };
  return { id: created.id, email: user.email, password: user.password, apiKey: created.apiKey };
}

/** The REST API of `world` with `apiKey`: answers the parsed body, throws on any non-2xx (for setting a scene up). */
export function apiCaller(world: WebWorld, apiKey: () => string) {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey()}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${world.baseUrl}/api/v1${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
}

/** Launches headless Chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

/** A fresh context (own cookies, downloads allowed, 1280×800) and a page in it. Page errors fail the test. */
export async function openPage(browser: Browser, world: WebWorld): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: world.baseUrl, acceptDownloads: true, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw new Error(`page error: ${error.message}`);
  });
  return { context, page };
}

/** Signs in through the API (the context keeps the cookie), for tests whose point is not the sign-in form. */
export async function signInByApi(context: BrowserContext, world: WebWorld, email: string, password: string): Promise<void> {
  const response = await context.request.post(`${world.baseUrl}/api/v1/auth/sign-in`, {
    data: { email, password },
    headers: { origin: world.baseUrl },
  });
  if (!response.ok()) throw new Error(`sign-in failed: ${response.status()} ${await response.text()}`);
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe-core on the page as it is now and throws when it finds a serious or critical violation.
 * The script is evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.evaluate(axe.source);
  // A string, evaluated in the page: the test's TypeScript has no DOM types, the page has no module system.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))`)) as Violation[];
  const blocking = violations.filter((violation) => violation.impact !== null && BLOCKING_IMPACTS.has(violation.impact));
  if (blocking.length > 0) {
    const listed = blocking.map((v) => `- ${v.impact} ${v.id}: ${v.help} (${v.targets.join(', ')})`).join('\n');
    throw new Error(`axe-core found ${blocking.length} serious or critical violation(s) on ${what}:\n${listed}`);
  }
}
