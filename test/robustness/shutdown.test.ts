/**
 * Graceful shutdown: `tolk serve` runs as a child; a client downloads a large export so slowly
 * that the download is still in flight when the server gets SIGTERM. The download must still
 * arrive whole, new connections must be refused from then on, the process must exit 0 soon after
 * the download ends (not at the grace deadline), and the store must be closed cleanly: on SQLite
 * the write-ahead log checkpointed away; on both, the store reopens and passes the integrity check.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../src/domain/shared/ids.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { openStore } from '../../src/store/open-store.js';
import { sleep, startServerProcess, type ServerProcess } from '../helpers/access.js';
import { DIALECTS } from '../helpers/dialects.js';
import { checkIntegrity } from '../helpers/integrity.js';
import { openTestStore } from '../helpers/server.js';
import { call } from './api-client.js';

/** Enough text that the JSON export (3 languages) is tens of MB: far beyond what socket buffers hold. */
const ENTRIES = 30_000;
/** Entries of the import whose client goes away: about a second or more of the server's work. */
const IMPORTED = 60_000;
/** The server's grace period for in-flight requests (src/server.ts). */
const SHUTDOWN_GRACE_MS = 10_000;

/** Starts a GET without reading its body: resolves with the response, paused after its first chunk. */
async function startSlowDownload(url: string, key: string): Promise<{ response: IncomingMessage; chunks: Buffer[] }> {
  // Keep-alive, as browsers and fetch do: the connection outlives the response unless the server ends it.
  const req = request(url, { headers: { authorization: `Bearer ${key}` }, agent: new Agent({ keepAlive: true }) });
  req.end();
  const [response] = (await once(req, 'response')) as [IncomingMessage];
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(response, 'data');
  response.pause();
  return { response, chunks };
}

/** Whether a TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(DIALECTS)('graceful shutdown on %s', (dialect) => {
  it('on SIGTERM finishes the in-flight export whole, refuses new connections, exits 0 and closes the store cleanly', async () => {
    const { store, url, dispose } = await openTestStore(dialect);
    let server: ServerProcess | undefined;
    let storeOpen = true;
    try {
      const { apiKey } = await createUser(store.db, { email: `shutdown-${dialect}@example.com`, firstName: 'Shut', lastName: 'Down', dailyQuota: 1_000_000 });
      // At info: the server says when its store is closed.
      server = await startServerProcess(url, { LOG_LEVEL: 'info' });
      const api = (method: string, path: string, body?: unknown) => call(server!.baseUrl, apiKey, method, path, body);
      const project = (await api('POST', '/projects', { name: 'Shutdown', baseLanguage: 'en', translationLanguages: ['de', 'fr'] })).body;
      const group = (await api('POST', `/projects/${project.id}/groups`, { technicalName: 'bulk', displayName: 'Bulk' })).body;
      // Written straight to the store: tens of thousands of API calls would only slow the test down.
      const now = nowIso();
      const rows = Array.from({ length: ENTRIES }, (_, i) => ({
        id: newId(), project_id: project.id, group_id: group.id, technical_name: `entry${i}`, base_term: `Text number ${i} `.repeat(20),
        base_term_key: `text number ${i} `.repeat(20), context_info: null, created_at: now, updated_at: now,
      }));
      for (let i = 0; i < rows.length; i += 500) {
        const batch = rows.slice(i, i + 500);
        await store.db.insertInto('entries').values(batch).execute();
        // As tolk records them: every new entry lacks both translation languages.
        const missing = batch.flatMap((row) => ['de', 'fr'].map((language) => ({ entry_id: row.id, language, project_id: project.id, created_at: now })));
        await store.db.insertInto('missing_translations').values(missing).execute();
      }
      // The server must hold the last connection, so that its close is the one that checkpoints SQLite's log.
      await store.close();
      storeOpen = false;

      const exportUrl = `${server.baseUrl}/projects/${project.id}/export/json`;
      const expected = await api('GET', `/projects/${project.id}/export/json`);
      expect(expected.status).toBe(200);
      expect(expected.bytes.length).toBeGreaterThan(20_000_000);

      const download = await startSlowDownload(exportUrl, apiKey);
      expect(download.response.statusCode).toBe(200);
      const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const outputEnded = once(server.child, 'close');
      server.child.kill('SIGTERM');
      const signalledAt = Date.now();

      const port = Number(new URL(server.baseUrl).port);
      let refusedAfter = -1;
      while (refusedAfter < 0 && Date.now() - signalledAt < 3_000) {
        if (await refused(port)) refusedAfter = Date.now() - signalledAt;
        else await sleep(20);
      }
      expect(refusedAfter, 'new connections were still accepted 3 s after SIGTERM').toBeGreaterThanOrEqual(0);
      await sleep(500);
      expect(server.child.exitCode, 'the server exited while a request was in flight').toBeNull();
      expect(await refused(port)).toBe(true);

      download.response.resume();
      await once(download.response, 'end');
      const finishedAt = Date.now();
      // The exit is timed before the body is checked: hashing and parsing 30 MB here takes a loaded machine seconds.
      const [code, signal] = await Promise.race([exited, sleep(SHUTDOWN_GRACE_MS + 5_000).then(() => [null, 'timeout'] as const)]);
      const exitDelay = Date.now() - finishedAt;
      const body = Buffer.concat(download.chunks);
      expect(body.length).toBe(expected.bytes.length);
      expect(sha256(body)).toBe(sha256(expected.bytes));
      expect(Object.keys(JSON.parse(body.toString('utf8')))).toEqual(['en', 'de', 'fr']);
      console.log(`[shutdown] ${dialect}: a ${(body.length / 1e6).toFixed(1)} MB export in flight at SIGTERM arrived whole; ` +
        `new connections refused within ${refusedAfter} ms; exit 0 ${exitDelay} ms after the download ended`);
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      // Well before the grace deadline: nothing (such as the download's keep-alive socket) held the shutdown up.
      expect(exitDelay).toBeLessThan(3_000);
      // The close ran to its end (a process also exits 0 when it runs out of work half-way through it).
      await outputEnded;
      expect(server.output()).toContain('shutting down: store closed');

      if (dialect === 'sqlite') {
        const log = `${url.slice('sqlite:'.length)}-wal`;
        expect(existsSync(log) ? statSync(log).size : 0, 'the write-ahead log was not checkpointed on close').toBe(0);
      }
      const reopened = await openStore(url);
      try {
        expect(await checkIntegrity(reopened.db)).toEqual([]);
        const stored = await reopened.db.selectFrom('entries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        expect(Number(stored.n)).toBe(ENTRIES);
      } finally {
        await reopened.close();
      }
    } finally {
      await server?.stop();
      if (storeOpen) await store.close();
      await dispose();
    }
  }, 90_000);

  it('keeps the store open for a request whose client went away, until its work is done, and logs no error', async () => {
    const { store, url, dispose } = await openTestStore(dialect);
    let server: ServerProcess | undefined;
    try {
      const { apiKey } = await createUser(store.db, { email: `gone-${dialect}@example.com`, firstName: 'Gone', lastName: 'Client', dailyQuota: 1_000_000 });
      await store.close();
      server = await startServerProcess(url);
      const api = (method: string, path: string, body?: unknown) => call(server!.baseUrl, apiKey, method, path, body);
      const project = (await api('POST', '/projects', { name: 'Gone', baseLanguage: 'en', translationLanguages: ['de'] })).body;
      // An import that takes the server well over a second: still writing when its client has gone.
      const entries = (language: string) => Object.fromEntries(Array.from({ length: IMPORTED }, (_, i) => [`entry${i}`, `${language} text ${i}`]));
      const body = JSON.stringify({ en: { bulk: entries('en') }, de: { bulk: entries('de') } });
      const upload = request(`${server.baseUrl}/projects/${project.id}/import?format=json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      upload.on('error', () => {}); // destroyed below, on purpose
      upload.end(body);
      await once(upload, 'finish');
      await sleep(150);
      upload.destroy();
      const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      server.child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      const errors = server.output().split('\n').filter((line) => /"level":(50|60)/.test(line));
      expect(errors, errors.join('\n').slice(0, 2000)).toEqual([]);
      // The import ran to its end before the store was closed: all of it is there.
      const reopened = await openStore(url);
      try {
        const stored = await reopened.db.selectFrom('entries').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', project.id).executeTakeFirstOrThrow();
        expect(Number(stored.n)).toBe(IMPORTED);
        expect(await checkIntegrity(reopened.db)).toEqual([]);
      } finally {
        await reopened.close();
      }
    } finally {
      await server?.stop();
      await dispose();
    }
  }, 90_000);

  it('does not wait for requests whose client went away as they were sent', async () => {
    const { store, url, dispose } = await openTestStore(dialect);
    let server: ServerProcess | undefined;
    try {
      const { apiKey } = await createUser(store.db, { email: `half-${dialect}@example.com`, firstName: 'Half', lastName: 'Body', dailyQuota: 1_000_000 });
      await store.close();
      server = await startServerProcess(url);
      const api = (method: string, path: string, body?: unknown) => call(server!.baseUrl, apiKey, method, path, body);
      const project = (await api('POST', '/projects', { name: 'Half', baseLanguage: 'en', translationLanguages: ['de'] })).body;
      const group = (await api('POST', `/projects/${project.id}/groups`, { technicalName: 'main', displayName: 'Main' })).body;
      const { hostname, port } = new URL(server.baseUrl);
      // Whole requests whose client is gone at once, some with half their body: Fastify never finishes some of them.
      const body = JSON.stringify({ technicalName: 'gone', baseTerm: 'Gone' });
      await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const socket = connect(Number(port), hostname);
          socket.on('error', () => {});
          await once(socket, 'connect');
          const sent = i % 2 === 0 ? body : body.slice(0, 10);
          socket.write(
            `POST /api/v1/groups/${group.id}/entries HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${apiKey}\r\n` +
              `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${sent}`,
          );
          socket.destroy();
        }),
      );
      await sleep(100);
      const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      // Well before the grace deadline (10 s): nothing was counted as still working.
      expect(Date.now() - signalled).toBeLessThan(3_000);
      expect(server.output()).not.toContain('still running at the grace deadline');
    } finally {
      await server?.stop();
      await dispose();
    }
  }, 60_000);

  it('with SHUTDOWN_DRAIN_MS, answers /readyz 503 and still serves requests for that long after SIGTERM, then exits 0', async () => {
    const { store, url, dispose } = await openTestStore(dialect);
    await store.close();
    const server = await startServerProcess(url, { SHUTDOWN_DRAIN_MS: '1500' });
    try {
      const origin = new URL(server.baseUrl).origin;
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
      const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await sleep(300);
      const ready = await fetch(`${origin}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ statusCode: 503, code: 'ERR_UNAVAILABLE' });
      // still answering everything else meanwhile
      expect((await fetch(`${server.baseUrl}/version`)).status).toBe(200);
      const [code] = await exited;
      expect(code).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1500);
    } finally {
      if (server.child.exitCode === null) await server.stop();
      await dispose();
    }
  }, 60_000);
});
