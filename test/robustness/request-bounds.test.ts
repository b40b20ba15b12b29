/**
 * One request must never stop the server (issue 30), on both stores: each input that held the event
 * loop for seconds (or the heap until the process died) is sent at the largest size the server takes,
 * and must get its 4xx naming the limit while the event loop stays free (test/helpers/stall.ts), the
 * server answering GET /version afterwards. The bounds are generous: correctness, not speed targets.
 */
import { randomBytes } from 'node:crypto';
import { createGzip, gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_LIMITS, MAX_IMPORT_NESTING, MAX_IMPORT_TEXT_LENGTH } from '../../src/imports/import-limits.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup } from '../helpers/seed.js';
import { startServer, type ApiResponse, type TestServer, type TestUser } from '../helpers/server.js';
import { measureStall } from '../helpers/stall.js';

/** The longest stall any of these requests may cause (they stalled 3–120 s, or crashed, before). */
const STALL_BOUND_MS = 1_500;
const MiB = 1024 * 1024;
/** IMPORT_MAX_BYTES' default: the largest import body a server takes. */
const IMPORT_MAX_BYTES = 64 * MiB;

const figures: string[] = [];
afterAll(() => console.log(`[request-bounds] ${figures.join('; ')}`));

/** A .tar.gz whose members are written by `fill` (tar-stream's packer, gzip streamed). */
async function tarGzOf(fill: (archive: ReturnType<typeof pack>) => Promise<void> | void): Promise<Buffer> {
  const archive = pack();
  const gzip = createGzip({ level: 1 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  archive.pipe(gzip);
  await fill(archive);
  archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** One member of `size` bytes of `byte`, written a MiB at a time. */
async function bigMember(archive: ReturnType<typeof pack>, name: string, size: number): Promise<void> {
  const block = Buffer.alloc(MiB, 0x61);
  await new Promise<void>((resolve, reject) => {
    const entry = archive.entry({ name, size }, (error) => (error ? reject(error) : resolve()));
    let left = size;
    const write = () => {
      while (left > 0) {
        const chunk = left >= MiB ? block : block.subarray(0, left);
        left -= chunk.length;
        if (!entry.write(chunk)) return void entry.once('drain', write);
      }
      entry.end(undefined);
    };
    write();
  });
}

/** A ustar header for a regular file (what tar-stream's packer writes, made here by hand: it packs 100,000 entries in ~35 s). */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

/** A tar of small text files. */
function tarOf(files: [name: string, text: string][]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of files) {
    const data = Buffer.from(text);
    parts.push(tarHeader(name, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** `'{"a":'` `depth` times around a text: JSON `depth` objects deep (V8's JSON.parse takes it; a recursive reader does not). */
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;

describe.each(DIALECTS)('request bounds on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let projectId: string;
  let entryId: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
    const { project, group } = await createProjectWithGroup(server, owner.apiKey);
    projectId = project.id;
    entryId = (await createEntry(server, owner.apiKey, group.id, 'greeting')).id;
  });
  afterAll(() => server?.close());

  /** Runs `work`, records and bounds its stall, and checks that the server still answers. */
  async function bounded<T>(label: string, work: () => Promise<T>, bound = STALL_BOUND_MS): Promise<T> {
    const { result, stallMs } = await measureStall(work);
    figures.push(`${dialect} ${label}: ${stallMs} ms`);
    expect(stallMs, `${label}: the event loop stalled ${stallMs} ms`).toBeLessThan(bound);
    expect((await server.api('GET', '/version')).status).toBe(200);
    return result;
  }

  const importBody = (format: string, body: Uint8Array | string, query = '') =>
    server.api('POST', `/projects/${projectId}/import?format=${format}${query}`, {
      key: owner.apiKey,
      rawBody: body,
      headers: { 'content-type': typeof body === 'string' ? 'application/json' : 'application/gzip' },
    });

  function expectError(response: ApiResponse, status: number, code: string, mentions: RegExp): void {
    expect(response.status, response.text.slice(0, 500)).toBe(status);
    expect(response.body.code).toBe(code);
    expect(JSON.stringify(response.body)).toMatch(mentions);
  }

  it('archive bytes never go through the text check: 64 MiB of random bytes answer at once (H1)', { timeout: 30_000 }, async () => {
    const bytes = randomBytes(IMPORT_MAX_BYTES);
    const unknown = await bounded('64 MiB random gzip to an unknown project', () =>
      server.api('POST', '/projects/00000000-0000-4000-8000-000000000000/import?format=i18next', { key: owner.apiKey, rawBody: bytes, headers: { 'content-type': 'application/gzip' } }),
    );
    expect(unknown.status, unknown.text).toBe(404);
    const own = await bounded('64 MiB random gzip to a project', () => importBody('i18next', bytes));
    expectError(own, 400, 'ERR_VALIDATION', /not gzip/);
  });

  it('the JSON text check is one cheap pass over a 1 MiB body, however wide or deep (M3)', { timeout: 30_000 }, async () => {
    const wide = `{"name":"x","baseLanguage":"en","x":[${'"ab",'.repeat(200_000)}"\\ud800"]}`;
    const deep = `{"name":"x","baseLanguage":"en","x":${'['.repeat(500_000)}"\\udc00"${']'.repeat(500_000)}}`;
    // V8's JSON.parse alone of half a million levels takes 0.25–0.8 s on these shared machines: the deep
    // body's bound is twice the others'. The guard's own share is bounded in test/unit/text-guard-cost.test.ts.
    for (const [label, body, at, bound] of [['wide', wide, '/body/x/200000', STALL_BOUND_MS], ['deep', deep, `/body/x${'/0'.repeat(99)}/…`, 2 * STALL_BOUND_MS]] as const) {
      expect(body.length).toBeLessThan(MiB);
      const response = await bounded(
        `1 MiB ${label} JSON with an unstorable text at its end`,
        () => server.api('POST', '/projects', { key: owner.apiKey, rawBody: body, headers: { 'content-type': 'application/json' } }),
        bound,
      );
      expectError(response, 400, 'ERR_VALIDATION', /unpaired UTF-16 surrogates/);
      expect(response.body.details[0].path).toBe(at);
    }
  });

  it('an ICU text that does not parse gets its hint in linear time (H2)', { timeout: 30_000 }, async () => {
    // `{{`, spaces, letters, no `}}`: the hint's regex tried every split (120 s at this size).
    const text = `{{${' '.repeat(3_000)}${'a'.repeat(6_998)}`;
    expect([...text].length).toBe(10_000);
    const put = await bounded('10,000-character {{ + spaces + letters PUT', () =>
      server.api('PUT', `/entries/${entryId}/translations`, { key: owner.apiKey, body: { language: 'de', translation: text } }),
    );
    expectError(put, 400, 'ERR_VALIDATION', /not an ICU message|expected/);
    const imported = await bounded('the same text imported (json)', () => importBody('json', JSON.stringify({ de: { main: { greeting: text } } })));
    expectError(imported, 400, 'ERR_VALIDATION', /expected/);
  });

  it('import texts are length-checked before they are read: 16 MiB texts are refused at once', { timeout: 30_000 }, async () => {
    const huge = `{{${' '.repeat(16 * MiB)}a`;
    for (const format of ['json', 'vue-i18n']) {
      const response = await bounded(`a 16 MiB ${format} text`, () => importBody(format, JSON.stringify({ de: { main: { greeting: huge } } })));
      expectError(response, 400, 'ERR_VALIDATION', format === 'json' ? /at most 10,000/ : new RegExp(MAX_IMPORT_TEXT_LENGTH.toLocaleString('en')));
    }
  });

  it('vue-i18n pipes are read in linear time (H3)', { timeout: 30_000 }, async () => {
    // Spaces with no pipe after them: `\s*\|\s*` rescanned the run from each of its characters.
    const text = `a${' '.repeat(MAX_IMPORT_TEXT_LENGTH - 2)}b`;
    const response = await bounded(`a ${MAX_IMPORT_TEXT_LENGTH.toLocaleString('en')}-character vue-i18n text of spaces`, () =>
      importBody('vue-i18n', JSON.stringify({ de: { 'main.greeting': text } })),
    );
    expectError(response, 400, 'ERR_VALIDATION', /at most 10,000/);
  });

  it(`nested import JSON deeper than ${MAX_IMPORT_NESTING} levels is refused by name, in every format (L5)`, { timeout: 30_000 }, async () => {
    const depth = 200_000;
    const limit = new RegExp(`${MAX_IMPORT_NESTING} levels`);
    const cases: [string, () => Promise<ApiResponse>][] = [
      ['json', () => importBody('json', `{"en":${deepObject(depth)}}`)],
      ['vue-i18n', () => importBody('vue-i18n', `{"en":${deepObject(depth)}}`)],
      ['i18next', async () => importBody('i18next', await tarGzOf((archive) => void archive.entry({ name: 'en/translation.json' }, deepObject(depth))))],
      [
        'flutter',
        async () =>
          importBody('flutter', await tarGzOf((archive) => void archive.entry({ name: 'app_en.arb' }, `{"greeting":"Hi","@greeting":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`))),
      ],
    ];
    for (const [format, send] of cases) {
      const response = await bounded(`${format} ${depth.toLocaleString('en')} levels deep`, send);
      expectError(response, 400, 'ERR_VALIDATION', limit);
    }
    // At the limit the reading goes on: the key is refused by the naming rules (groups nest 10 deep), not the nesting.
    const atLimit = await importBody('json', `{"en":${deepObject(MAX_IMPORT_NESTING - 1)}}`);
    expectError(atLimit, 400, 'ERR_VALIDATION', /groups nest at most 10 deep/);
  });

  describe('archives are read within their limits (M1)', () => {
    it(`one member over ${ARCHIVE_LIMITS.memberBytes / MiB} MiB (a 250 MiB text in a small .tgz)`, { timeout: 40_000 }, async () => {
      const body = await tarGzOf((archive) => bigMember(archive, 'en/translation.json', 250 * MiB));
      expect(body.length).toBeLessThan(2 * MiB);
      const response = await bounded('a 250 MiB member', () => importBody('i18next', body));
      expectError(response, 413, 'ERR_PAYLOAD_TOO_LARGE', /member/);
    });

    it(`more than ${ARCHIVE_LIMITS.members.toLocaleString('en')} members (100,000)`, { timeout: 40_000 }, async () => {
      const body = gzipSync(tarOf(Array.from({ length: 100_000 }, (_, i) => [`l${i}/translation.json`, '{}'])), { level: 1 });
      const response = await bounded('100,000 members', () => importBody('i18next', body));
      expectError(response, 413, 'ERR_PAYLOAD_TOO_LARGE', new RegExp(ARCHIVE_LIMITS.members.toLocaleString('en')));
    });

    it(`unpacking more than ${ARCHIVE_LIMITS.ratio}× the body`, { timeout: 40_000 }, async () => {
      const body = await tarGzOf(async (archive) => {
        for (let i = 0; i < 12; i += 1) await bigMember(archive, `l${i}/translation.json`, ARCHIVE_LIMITS.memberBytes - MiB);
      });
      const response = await bounded(`12 members of ${ARCHIVE_LIMITS.memberBytes / MiB - 1} MiB in ${Math.round(body.length / 1024)} KiB`, () => importBody('i18next', body));
      expectError(response, 413, 'ERR_PAYLOAD_TOO_LARGE', /ratio|times/);
    });
  });

  it('a large import (40,000 keys in 2 languages) is read, planned and written without holding the event loop', { timeout: 60_000 }, async () => {
    // The old reading and planning took a language's 40,000 texts in one piece (each parsed): 2–4 s.
    const languages = ['en', 'de'];
    const body: Record<string, Record<string, Record<string, string>>> = {};
    for (const language of languages) {
      const tree: Record<string, Record<string, string>> = (body[language] = {});
      for (let i = 0; i < 40_000; i += 1) (tree[`area${i % 20}`] ??= {})[`entry${i}`] = `${language} text ${i} with {name} and {count, plural, one {# item} other {# items}}`;
    }
    const response = await bounded('a 40,000-key import in 2 languages', () => importBody('json', JSON.stringify(body)));
    expect(response.status, response.text.slice(0, 500)).toBe(200);
    expect(response.body.entries.created).toBe(40_000);
  });
});

describe('readArchive', () => {
  it('refuses bytes that are not gzip, and reads a valid tiny archive', async () => {
    const { readArchive } = await import('../../src/imports/read-archive.js');
    await expect(readArchive(randomBytes(1024))).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    const tiny = await tarGzOf((archive) => void archive.entry({ name: 'en/translation.json' }, '{"a":"b"}'));
    expect(await readArchive(tiny)).toEqual([{ name: 'en/translation.json', text: '{"a":"b"}' }]);
  });

  it('stops at the total unpacked size, with members each within theirs (limits scaled down)', async () => {
    const { readArchive } = await import('../../src/imports/read-archive.js');
    const body = gzipSync(tarOf([0, 1, 2].map((i) => [`l${i}/translation.json`, 'a'.repeat(900 * 1024)] as [string, string])));
    const limits = { ...ARCHIVE_LIMITS, memberBytes: MiB, unpackedBytes: 2 * MiB, ratioFreeBytes: 0, ratio: 1_000_000 };
    await expect(readArchive(body, limits)).rejects.toMatchObject({ code: 'ERR_PAYLOAD_TOO_LARGE', message: expect.stringMatching(/more than 2 MiB \(the unpacked size limit\)/) });
    expect(await readArchive(body, { ...limits, unpackedBytes: 4 * MiB })).toHaveLength(3);
  });
});
