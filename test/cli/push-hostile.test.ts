/**
 * `tolk push` against a hostile (or compromised) server whose report and refusals hold terminal escape
 * sequences: what it prints shows them as text and sends none to the terminal. The built CLI runs, since
 * what is tested is what reaches stdout and stderr.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOLK_BIN, type CliResult } from '../helpers/cli.js';

/** ESC, BEL, CSI (C1) and the rest of C0/C1 but for newline, plus the bidi overrides and isolates. */
const TERMINAL_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = 'x\u001b]0;pw\u0007\u001b[2J\u009b31m\u202etxt';

const report = {
  dryRun: false,
  groups: { created: `1\u001b[2J` },
  entries: { created: 1, updated: 0, unchanged: 0 },
  translations: { created: 1, updated: 0, unchanged: 0 },
  conflicts: [{ key: `home.${HOSTILE}`, language: `de${HOSTILE}`, stored: HOSTILE, imported: HOSTILE }],
  refused: [{ key: HOSTILE, language: 'de', code: 'ERR_VALIDATION', message: HOSTILE }],
  warnings: [{ key: 'home.title', language: 'de', message: `line one\nline two ${HOSTILE}` }],
  files: [{ name: `en${HOSTILE}`, language: HOSTILE, texts: 1 }],
  totals: { conflicts: 1, refused: 1, warnings: 1, files: 1 },
};
const refusal = { code: 'ERR_VALIDATION', message: `1 item(s) refused ${HOSTILE}`, details: [{ path: `de:${HOSTILE}`, message: HOSTILE }] };

let server: Server;
let url: string;
let input: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const refuse = request.url?.includes('/projects/refusing/');
      response.writeHead(refuse ? 400 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(refuse ? refusal : report));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  input = join(mkdtempSync(join(tmpdir(), 'tolk-push-hostile-')), 'messages.json');
  writeFileSync(input, JSON.stringify({ en: { home: { title: 'Home' } } }));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function push(project: string, extra: string[] = []): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['TOLK_URL', 'TOLK_API_KEY', 'CI']) delete env[name];
  const args = [TOLK_BIN, 'push', '--url', url, '--key', 'k', '--project', project, '--format', 'json', '--in', input, ...extra];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: tmpdir(), env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('tolk push prints no terminal control sequence a server sent', () => {
  it('the report as tables: every sequence shown as text, the layout intact', async () => {
    const result = await push('reporting');
    expect(result.code).toBe(1); // one key refused
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(result.stdout).toContain('groups        1\\x1b[2J new');
    expect(result.stdout).toMatch(/Refused \(1\)\nkey +language +why\n-+ +-+ +-+\nx\\x1b\]0;pw\\x07\\x1b\[2J\\x9b31m\\u202etxt +de +x\\x1b/);
    expect(result.stdout).toContain('line one line two x\\x1b]0;pw');
    expect(result.stdout).toMatch(/Files read \(1\)\nfile +language +texts\n-+ +-+ +-+\nmessages\.json +x\\x1b\]0;pw\\x07.* +1\n/);
  });

  it('the report as --json: the same text, with the sequences as JSON escapes', async () => {
    const result = await push('reporting', ['--json']);
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
    // each file of a JSON document's report is the one file sent
    expect(JSON.parse(result.stdout)).toEqual({ ...report, files: [{ ...report.files[0], path: 'messages.json' }], notRead: [] });
  });

  it('a refusal (400 with details): the table and its heading show the sequences as text', async () => {
    const result = await push('refusing');
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(result.stdout).toMatch(/^Nothing imported: 1 item\(s\) refused x\\x1b\]0;pw\\x07/);
    expect(result.stdout).toMatch(/\nde:x\\x1b\]0;pw\\x07\\x1b\[2J\\x9b31m\\u202etxt +x\\x1b/);
  });
});
