/**
 * The web application's own texts (web/src/locales/<lang>/translation.json) are kept in exactly tolk's
 * i18next export format: pushed into a tolk project with `tolk push` and exported again, they come back
 * equal; and i18next (the library the app renders them with) fills every placeholder in both languages.
 */
import i18next from 'i18next';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untar } from '../helpers/consumers.js';
import { runCli } from '../helpers/cli.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const LOCALES = fileURLToPath(new URL('../../web/src/locales/', import.meta.url));
const UI_LANGUAGES = ['de', 'en'];

type Tree = { [key: string]: string | Tree };
const read = (language: string) => JSON.parse(readFileSync(`${LOCALES}${language}/translation.json`, 'utf8')) as Tree;

/** Dotted key → message. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') flat.set(prefix + key, value);
    else for (const [inner, message] of flatten(value, `${prefix}${key}.`)) flat.set(inner, message);
  }
  return flat;
}

describe("the web application's texts", () => {
  let server: TestServer;
  let owner: TestUser;
  beforeAll(async () => {
    server = await startServer('sqlite');
    owner = await server.user();
  });
  afterAll(() => server?.close());

  it('have English and German with the same keys and the same placeholders', () => {
    const [de, en] = UI_LANGUAGES.map((language) => flatten(read(language)));
    expect(en!.size).toBeGreaterThan(100);
    expect([...de!.keys()].sort()).toEqual([...en!.keys()].sort());
    const placeholders = (message: string) => [...message.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
    for (const [key, message] of en!) expect(placeholders(de!.get(key)!), key).toEqual(placeholders(message));
  });

  it('come back equal from a tolk project they were pushed into (tolk push → i18next export)', async () => {
    const project = await createProject(server, owner.apiKey, { name: 'tolk UI', baseLanguage: 'en', translationLanguages: ['de'] });
    const origin = new URL(server.baseUrl).origin;
    const pushed = await runCli(server.databaseUrl, ['push', '--url', origin, '--key', owner.apiKey, '--project', project.id, '--format', 'i18next', '--in', LOCALES]);
    expect(pushed.code, pushed.stderr).toBe(0);
    const response = await fetch(`${server.baseUrl}/projects/${project.id}/export/i18next`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
    expect(response.status).toBe(200);
    const files = await untar(Buffer.from(await response.arrayBuffer()));
    expect([...files.keys()].sort()).toEqual(UI_LANGUAGES.map((language) => `${language}/translation.json`));
    for (const language of UI_LANGUAGES) expect(JSON.parse(files.get(`${language}/translation.json`)!), language).toEqual(read(language));

    // and `tolk pull --pretty` writes the very bytes the app keeps (the README's dogfooding claim)
    const out = mkdtempSync(join(tmpdir(), 'tolk-ui-'));
    const pulled = await runCli(server.databaseUrl, ['pull', '--url', origin, '--key', owner.apiKey, '--project', project.id, '--format', 'i18next', '--out', out, '--pretty', '--quiet']);
    expect(pulled.code, pulled.stderr).toBe(0);
    for (const language of UI_LANGUAGES) {
      const kept = readFileSync(`${LOCALES}${language}/translation.json`, 'utf8');
      expect(readFileSync(join(out, language, 'translation.json'), 'utf8'), language).toBe(kept.endsWith('\n') ? kept.slice(0, -1) : kept);
    }
  });

  it('render in i18next in both languages with every placeholder filled', async () => {
    const instance = i18next.createInstance();
    await instance.init({
      lng: 'en',
      resources: Object.fromEntries(UI_LANGUAGES.map((language) => [language, { translation: read(language) }])),
      interpolation: { escapeValue: false },
    });
    for (const language of UI_LANGUAGES) {
      await instance.changeLanguage(language);
      for (const [key, message] of flatten(read(language))) {
        const values = Object.fromEntries([...message.matchAll(/\{\{(\w+)\}\}/g)].map((match) => [match[1], `«${match[1]}»`]));
        const rendered = instance.t(key, values);
        expect(rendered, `${language} ${key}`).not.toBe(key);
        expect(rendered, `${language} ${key}`).not.toContain('{{');
      }
    }
  });
});
