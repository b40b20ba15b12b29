/**
 * An answer given before the request's body is read (413 past a limit, 415, 401) reaches an ordinary
 * client that is still sending that body (issue 31): Node's own http client, writing the whole body
 * at once, reads the status and the error body with no EPIPE or ECONNRESET, and `tolk push` (fetch)
 * prints the 413's message. Before src/http/plugins/unread-bodies.ts the server closed the connection
 * while the body was still arriving, and every large case here failed with EPIPE. And the reading
 * after the answer is bounded (bytes and time), so no client can make the server listen for ever.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNREAD_BODY_BOUNDS } from '../../src/http/plugins/unread-bodies.js';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

const MiB = 1024 * 1024;
/** The import limit of the small server: bodies past it stay quick to send. */
const SMALL_IMPORT_MAX_BYTES = 8 * MiB;
/** Every case is sent this many times: the old failure depended on timing, though it came nearly always. */
const TRIES = 5;

interface Outcome {
  status?: number;
  body?: any;
  /** every error Node's client reported, from the first byte sent until the connection closed */
  errors: string[];
}

/**
 * POSTs `body` with node:http on a connection of its own, given whole in one write (with Content-Length,
 * or chunked), and waits until that connection has closed: the answer read, and any error on the way.
 */
function postWhole(url: string, headers: Record<string, string>, body: Buffer, { chunked = false } = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { errors: [] };
    let answered = Promise.resolve();
    const framing = chunked ? {} : { 'content-length': String(body.length) };
    const request = httpRequest(url, { method: 'POST', agent: false, headers: { ...headers, ...framing } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        outcome.status = response.statusCode;
        outcome.body = text === '' ? undefined : JSON.parse(text);
      });
      response.on('error', (error: NodeJS.ErrnoException) => outcome.errors.push(`response: ${error.code ?? error.message}`));
      answered = new Promise((done) => response.on('close', done));
    });
    request.on('error', (error: NodeJS.ErrnoException) => outcome.errors.push(`request: ${error.code ?? error.message}`));
    request.on('close', () => void answered.then(() => resolve(outcome)));
    request.end(body);
  });
}

/** `tolk push …` with no TOLK_ variables inherited. */
function tolkPush(args: string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['TOLK_URL', 'TOLK_API_KEY', 'CI']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [TOLK_BIN, 'push', ...args], { cwd: tmpdir(), env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe.each(DIALECTS)('answers before the body is read, on %s', (dialect) => {
  let small: TestServer;
  let standard: TestServer;
  let key: string;
  let projectId: string;
  let standardKey: string;
  let standardProjectId: string;

  beforeAll(async () => {
    [small, standard] = await Promise.all([startServer(dialect, { importMaxBytes: SMALL_IMPORT_MAX_BYTES }), startServer(dialect)]);
    key = (await small.user()).apiKey;
    projectId = (await createProject(small, key)).id;
    standardKey = (await standard.user()).apiKey;
    standardProjectId = (await createProject(standard, standardKey)).id;
  });
  afterAll(async () => {
    await small?.close();
    await standard?.close();
  });

  const withKey = (contentType: string, apiKey = key) => ({ 'content-type': contentType, authorization: `Bearer ${apiKey}` });

  /** Sends the body TRIES times (with Content-Length, then chunked) and expects each answer read whole. */
  async function expectAnswerRead(url: string, headers: Record<string, string>, body: Buffer, status: number, code: string, message: RegExp, framings = [false, true]) {
    for (const chunked of framings) {
      for (let attempt = 1; attempt <= TRIES; attempt += 1) {
        const outcome = await postWhole(url, headers, body, { chunked });
        const label = `${url} ${body.length} bytes, ${chunked ? 'chunked' : 'Content-Length'}, try ${attempt}`;
        expect(outcome.errors, label).toEqual([]);
        expect(outcome.status, label).toBe(status);
        expect(outcome.body, label).toEqual({ statusCode: status, code, message: expect.stringMatching(message) });
      }
    }
  }

  it(`an import of IMPORT_MAX_BYTES + 1 byte (${SMALL_IMPORT_MAX_BYTES.toLocaleString('en')} here) gets its 413 and message through node:http`, { timeout: 60_000 }, async () => {
    const url = `${small.baseUrl}/projects/${projectId}/import?format=i18next`;
    const body = randomBytes(SMALL_IMPORT_MAX_BYTES + 1);
    await expectAnswerRead(url, withKey('application/gzip'), body, 413, 'ERR_PAYLOAD_TOO_LARGE', /IMPORT_MAX_BYTES .*8,388,608 bytes on this server/);
  });

  it('an import of 64 MiB + 1 byte on a server of the default limit gets its 413 and message through node:http', { timeout: 60_000 }, async () => {
    const url = `${standard.baseUrl}/projects/${standardProjectId}/import?format=i18next`;
    const body = Buffer.alloc(64 * MiB + 1, 0x1f);
    await expectAnswerRead(url, withKey('application/gzip', standardKey), body, 413, 'ERR_PAYLOAD_TOO_LARGE', /67,108,864 bytes on this server/, [false]);
  });

  it('a body over 1 MiB to an API route gets its 413 through node:http (2 MiB, and 8 MiB, past what the sockets hold)', { timeout: 60_000 }, async () => {
    for (const size of [2 * MiB, 8 * MiB]) {
      const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(size), baseLanguage: 'en' }));
      await expectAnswerRead(`${small.baseUrl}/projects`, withKey('application/json'), body, 413, 'ERR_PAYLOAD_TOO_LARGE', /too large/);
    }
  });

  it('a body over 8 KiB to a route open to anyone gets its 413 and message through node:http', { timeout: 60_000 }, async () => {
    const body = Buffer.from(JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(8 * MiB) }));
    await expectAnswerRead(`${small.baseUrl}/auth/sign-in`, { 'content-type': 'application/json' }, body, 413, 'ERR_PAYLOAD_TOO_LARGE', /8,192 bytes/);
  });

  it('a refused key (401), answered before the body is read, reaches node:http too', { timeout: 60_000 }, async () => {
    const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(8 * MiB), baseLanguage: 'en' }));
    await expectAnswerRead(`${small.baseUrl}/projects`, withKey('application/json', 'tolk_not_a_key'), body, 401, 'ERR_UNAUTHORIZED', /invalid/);
  });

  describe('the media type of an import is checked before its body is read', () => {
    const importUrl = (format: string) => `${small.baseUrl}/projects/${projectId}/import?format=${format}`;
    const archive = gzipSync(Buffer.from('en/translation.json'));

    it('a gzip archive sent as application/json: 415 ERR_UNSUPPORTED_MEDIA_TYPE naming what the format takes, not 400 "not JSON"', async () => {
      for (const format of ['i18next', 'flutter', 'json']) {
        const answer = await small.api('POST', `/projects/${projectId}/import?format=${format}`, { key, rawBody: archive, headers: { 'content-type': 'application/json; charset=utf-8' } });
        if (format === 'json') {
          // The archive's bytes are not JSON: a json import reads its body, and says so.
          expect(answer.status, answer.text).toBe(400);
          continue;
        }
        expect(answer.status, answer.text).toBe(415);
        expect(answer.body).toEqual({ statusCode: 415, code: 'ERR_UNSUPPORTED_MEDIA_TYPE', message: `format=${format} takes the .tar.gz archive as application/gzip` });
      }
    });

    it('every other wrong type (text/plain, none, gzip for json, an unknown one) is a 415 too; an unknown format stays 400', async () => {
      const cases: [format: string, contentType: string | undefined, body: Buffer | string, status: number][] = [
        ['json', 'text/plain', '{"en":{}}', 415],
        ['vue-i18n', undefined, Buffer.from('{"en":{}}'), 415],
        ['json', 'application/gzip', archive, 415],
        ['i18next', 'application/octet-stream', archive, 415],
        ['flutter', undefined, archive, 415],
        ['klingon', 'application/json', archive, 400],
        ['klingon', 'application/gzip', archive, 400],
        ['i18next', 'application/x-gzip', archive, 400],
      ];
      for (const [format, contentType, body, status] of cases) {
        const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
        const answer = await small.api('POST', `/projects/${projectId}/import?format=${format}`, { key, rawBody: body, headers });
        const label = `format=${format} as ${contentType ?? 'nothing'}: ${answer.text}`;
        expect(answer.status, label).toBe(status);
        expect(answer.body.code, label).toBe(status === 415 ? 'ERR_UNSUPPORTED_MEDIA_TYPE' : 'ERR_VALIDATION');
      }
    });

    it('an 8 MiB archive sent as application/json gets its 415 through node:http', { timeout: 60_000 }, async () => {
      await expectAnswerRead(importUrl('i18next'), withKey('application/json'), randomBytes(8 * MiB), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE', /^format=i18next takes the \.tar\.gz archive/);
    });
  });

  it('`tolk push` of a folder whose body is over the import limit prints the 413 and its message, exits non-zero, no EPIPE', { timeout: 120_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tolk-oversized-'));
    try {
      const file = join(folder, 'messages.json');
      writeFileSync(file, JSON.stringify({ en: { big: randomBytes(12 * MiB).toString('base64') } }));
      const origin = small.baseUrl.replace(/\/api\/v1$/, '');
      for (let attempt = 1; attempt <= TRIES; attempt += 1) {
        const result = await tolkPush(['--url', origin, '--key', key, '--project', projectId, '--format', 'json', '--in', file]);
        expect(result.stderr, `try ${attempt}`).toContain('ERR_PAYLOAD_TOO_LARGE: the body is over IMPORT_MAX_BYTES (default 64 MiB; 8,388,608 bytes on this server)');
        expect(result.stderr).not.toMatch(/EPIPE|ECONNRESET|cannot reach/);
        expect(result.code).not.toBe(0);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('the reading after an early answer is bounded', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startServer('sqlite');
    key = (await server.user()).apiKey;
  });
  afterAll(() => server?.close());

  interface Trickle {
    answer: string;
    written: number;
    answeredAt: number;
    closedAt: number;
  }

  /**
   * Sends a chunked POST /api/v1/projects that never ends, `chunk` bytes at a time (waiting for the
   * socket to take each, and `pauseMs` between them), until the server closes the connection.
   */
  function endlessBody(headers: string, chunk: number, pauseMs: number): Promise<Trickle> {
    const { port } = new URL(server.baseUrl);
    return new Promise((resolve) => {
      // Half-open: the client goes on sending after the server's FIN, as a client that ignores the answer would.
      const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
      const result: Trickle = { answer: '', written: 0, answeredAt: 0, closedAt: 0 };
      const frame = Buffer.concat([Buffer.from(`${chunk.toString(16)}\r\n`), Buffer.alloc(chunk, 0x61), Buffer.from('\r\n')]);
      socket.setEncoding('utf8');
      socket.on('data', (text: string) => {
        result.answeredAt ||= Date.now();
        result.answer += text;
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        result.closedAt = Date.now();
        resolve(result);
      });
      const more = () => {
        if (socket.destroyed || !socket.writable) return;
        result.written += chunk;
        socket.write(frame, () => (pauseMs > 0 ? setTimeout(more, pauseMs) : setImmediate(more)));
      };
      socket.write(`POST /api/v1/projects HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${headers}\r\n`, more);
    });
  }

  it('a body that goes on past the bound after its 413 is cut: the server does not read it to its end', { timeout: 60_000 }, async () => {
    const result = await endlessBody(`Authorization: Bearer ${key}\r\n`, 64 * 1024, 0);
    expect(result.answer).toMatch(/^HTTP\/1\.1 413 [^]*Connection: close[^]*too large/i);
    // Read: 1 MiB before the 413, at most 16 MiB after; the rest is what the two sockets' buffers held.
    expect(result.written).toBeGreaterThan(UNREAD_BODY_BOUNDS.minBytes);
    expect(result.written).toBeLessThan(UNREAD_BODY_BOUNDS.minBytes + 32 * MiB);
    expect((await server.api('GET', '/version')).status).toBe(200);
  });

  it(`a body that trickles on after its 401 is cut ${UNREAD_BODY_BOUNDS.ms / 1000} s after the answer`, { timeout: 60_000 }, async () => {
    const result = await endlessBody('', 1024, 100);
    expect(result.answer).toMatch(/^HTTP\/1\.1 401 [^]*Connection: close/i);
    const lingered = result.closedAt - result.answeredAt;
    expect(lingered).toBeGreaterThan(UNREAD_BODY_BOUNDS.ms - 500);
    expect(lingered).toBeLessThan(UNREAD_BODY_BOUNDS.ms + 3_000);
  });
});
