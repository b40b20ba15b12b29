/** `tolk pull --release reviewed [--outdated fallback]`: what was reviewed, into the source tree, with its own ETag state. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createGroup, createProject, setTranslation } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** `tolk pull …` in `cwd`, no TOLK_ variables or CI inherited. */
function pull(args: string[], cwd = tmpdir()): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['TOLK_URL', 'TOLK_API_KEY', 'CI']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [TOLK_BIN, 'pull', ...args], { cwd, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const freshDir = () => mkdtempSync(join(tmpdir(), 'tolk-pull-release-'));
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe.each(DIALECTS)('tolk pull --release on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let projectId: string;
  let saveId: string;
  let closeId: string;
  let url: string;
  const base = () => ['--url', url, '--key', key, '--project', projectId];
  const ok = async (args: string[]) => {
    const result = await pull(args);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as { changed: boolean; etag: string; files: string[] };
  };
  const review = async (entryId: string) => {
    const response = await server.api('POST', `/entries/${entryId}/translations/review`, { key, body: { language: 'de' } });
    expect(response.status, response.text).toBe(200);
  };

  beforeAll(async () => {
    server = await startServer(dialect);
    url = server.baseUrl.replace(/\/api\/v1$/, '');
    key = (await server.user()).apiKey;
    projectId = (await createProject(server, key, { translationLanguages: ['de'] })).id;
    const group = await createGroup(server, key, projectId, 'app');
    saveId = (await createEntry(server, key, group.id, 'save', 'Save')).id;
    closeId = (await createEntry(server, key, group.id, 'close', 'Close')).id;
    await setTranslation(server, key, saveId, 'de', 'Speichern');
    await setTranslation(server, key, closeId, 'de', 'Schließen');
    await review(closeId);
    // Reviewed, then its base term changed: it ships unless --outdated fallback.
    expect((await server.api('PATCH', `/entries/${closeId}`, { key, body: { baseTerm: 'Close the window' } })).status).toBe(200);
  });
  afterAll(() => server?.close());

  it('writes the reviewed texts (the base term where none), keeps the ETag state per release, and pulls a review next time', async () => {
    const out = freshDir();
    const reviewed = [...base(), '--format', 'json', '--out', out, '--release', 'reviewed'];
    const first = await ok(reviewed);
    expect(first.changed).toBe(true);
    expect(readJson(join(out, 'messages.json')).de.app).toEqual({ close: 'Schließen', save: 'Save' });
    expect(readJson(join(out, '.tolk-pull.json'))).toMatchObject({ etag: first.etag, release: 'reviewed' });
    expect(await ok(reviewed)).toMatchObject({ changed: false, etag: first.etag });

    // Another release into the same directory downloads again, and so does the way back.
    const latest = await ok([...base(), '--format', 'json', '--out', out]);
    expect(latest.changed).toBe(true);
    expect(latest.etag).not.toBe(first.etag);
    expect(readJson(join(out, 'messages.json')).de.app).toEqual({ close: 'Schließen', save: 'Speichern' });
    expect((await ok(reviewed)).changed).toBe(true);

    await review(saveId);
    const afterReview = await ok(reviewed);
    expect(afterReview.changed).toBe(true);
    expect(afterReview.etag).not.toBe(first.etag);
    expect(readJson(join(out, 'messages.json')).de.app.save).toBe('Speichern');
    await server.api('DELETE', `/entries/${saveId}/translations/review`, { key, body: { language: 'de' } });
  });

  it('--outdated fallback ships the base term where the review predates the base term, also from tolk.json', async () => {
    const out = freshDir();
    await ok([...base(), '--format', 'vue-i18n', '--out', out, '--release', 'reviewed', '--outdated', 'fallback']);
    expect(readJson(join(out, 'de.json'))).toEqual({ 'app.close': 'Close the window', 'app.save': 'Save' });
    expect(readJson(join(out, '.tolk-pull.json')).release).toBe('reviewed-fallback');

    const cwd = freshDir();
    writeFileSync(join(cwd, 'tolk.json'), JSON.stringify({ url, project: projectId, format: 'json', out: 'locales', apiKey: key, release: 'reviewed' }));
    const result = await pull([], cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(readJson(join(cwd, 'locales/messages.json')).de.app.close).toBe('Schließen');
  });

  it.each([
    [['--release', 'published'], /--release must be one of latest, reviewed, not "published"/],
    [['--release', 'reviewed', '--outdated', 'drop'], /--outdated must be one of ship, fallback, not "drop"/],
    [['--outdated', 'fallback'], /--outdated is for --release reviewed/],
  ])('refuses %j: exit 1, one line, nothing written', async (flags, reason) => {
    const out = freshDir();
    const result = await pull([...base(), '--format', 'json', '--out', out, ...flags]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(() => readFileSync(join(out, 'messages.json'))).toThrow();
  });
});
