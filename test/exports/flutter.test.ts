import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untar } from '../helpers/consumers.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createGroup, createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Texts without stray braces: gen-l10n's default syntax must carry them unchanged. */
const PLAIN = [
  'Emoji 👩‍👩‍👧',
  'مرحبا',
  '日本語',
  'e\u0301 combining',
  'It\'s "quoted"',
  'Back\\slash',
  'a@b.com | Tom & Jerry',
  '100% $5',
  'Line one\nLine two',
];

async function download(server: TestServer, key: string, projectId: string) {
  const response = await fetch(`${server.baseUrl}/projects/${projectId}/export/flutter`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** gen-l10n's rule for message keys (notes: valid Dart method names starting lowercase). */
const GEN_L10N_KEY = /^[a-z][a-zA-Z0-9_]*$/;

describe.each(DIALECTS)('Flutter ARB export on %s', (dialect) => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    key = (await server.user()).apiKey;
  });
  afterAll(() => server?.close());

  it('writes one ARB per language plus the fallback gen-l10n needs, each @@locale matching its file name', async () => {
    const project = await createProject(server, key, { translationLanguages: ['de', 'pt-BR', 'es-419'] });
    const group = await createGroup(server, key, project.id, 'home');
    const entry = await createEntry(server, key, group.id, 'title', 'Home');
    await server.api('PUT', `/entries/${entry.id}/translations`, { key, body: { language: 'pt-BR', translation: 'Início' } });

    const response = await download(server, key, project.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="test-app-flutter\.tar\.gz"$/);
    const files = await untar(response.bytes);
    expect([...files.keys()].sort()).toEqual(['app_de.arb', 'app_en.arb', 'app_es.arb', 'app_es_419.arb', 'app_pt.arb', 'app_pt_BR.arb']);
    for (const [name, text] of files) {
      const locale = /^app_(.+)\.arb$/.exec(name)![1];
      expect(JSON.parse(text)['@@locale'], name).toBe(locale);
    }
    // The fallback file for pt carries pt-BR's texts, so an app in plain Portuguese gets them too.
    expect(JSON.parse(files.get('app_pt.arb')!).homeTitle).toBe('Início');
    expect(JSON.parse(files.get('app_de.arb')!).homeTitle).toBe('Home');
  });

  it('writes lowerCamel keys, a template with descriptions and declared placeholders, and messages ICU parsers accept unchanged', async () => {
    const project = await createProject(server, key, { translationLanguages: ['de'] });
    const auth = await createGroup(server, key, project.id, 'auth');
    const loginForm = await createGroup(server, key, project.id, 'loginForm', auth.id);
    const greeting = await server.api('POST', `/groups/${loginForm.id}/entries`, {
      key,
      body: { technicalName: 'greeting', baseTerm: 'Hello {userName}!', contextInfo: 'Shown after sign-in' },
    });
    const items = await createEntry(server, key, auth.id, 'itemCount', '{count, plural, =0{No items} one{One item} other{{count} items}}');
    await server.api('PUT', `/entries/${items.id}/translations`, {
      key,
      body: { language: 'de', translation: '{count, plural, one{Ein Eintrag} other{{count} Einträge}}' },
    });
    const plain = [];
    for (const [index, text] of PLAIN.entries()) plain.push({ name: `plain${index}Text`, text, entry: await createEntry(server, key, auth.id, `plain${index}Text`, text) });
    await server.api('PUT', `/entries/${greeting.body.id}/translations`, { key, body: { language: 'de', translation: 'Hallo {userName}!' } });

    const files = await untar((await download(server, key, project.id)).bytes);
    const template = JSON.parse(files.get('app_en.arb')!);
    const german = JSON.parse(files.get('app_de.arb')!);

    expect(template.authLoginFormGreeting).toBe('Hello {userName}!');
    expect(template['@authLoginFormGreeting']).toEqual({ description: 'Shown after sign-in', placeholders: { userName: { type: 'String' } } });
    expect(template['@authItemCount'].placeholders).toEqual({ count: { type: 'num' } });
    expect(german.authLoginFormGreeting).toBe('Hallo {userName}!');
    expect(Object.keys(german).some((k) => k.startsWith('@') && k !== '@@locale')).toBe(false);

    for (const document of [template, german]) {
      for (const [name, message] of Object.entries(document)) {
        if (name.startsWith('@')) continue;
        expect(name).toMatch(GEN_L10N_KEY);
        // Every message parses as ICU, and every argument it uses is declared in the template.
        const ast = parse(message as string, { ignoreTag: true });
        const declared = Object.keys(template[`@${name}`]?.placeholders ?? {});
        for (const element of ast) if ('value' in element && element.type !== TYPE.literal) expect(declared).toContain(element.value);
      }
    }
    for (const { name, text } of plain) {
      const ast = parse(template[`auth${name[0]!.toUpperCase()}${name.slice(1)}`], { ignoreTag: true });
      expect(ast).toEqual([{ type: TYPE.literal, value: text }]);
    }
  });

  it('refuses two paths with the same composite key: 409 ERR_EXPORT_KEY_COLLISION naming both', async () => {
    const project = await createProject(server, key);
    const auth = await createGroup(server, key, project.id, 'auth');
    const authLogin = await createGroup(server, key, project.id, 'authLogin');
    await createEntry(server, key, auth.id, 'loginTitle', 'A');
    await createEntry(server, key, authLogin.id, 'title', 'B');
    const response = await download(server, key, project.id);
    expect(response.status).toBe(409);
    const body = JSON.parse(response.bytes.toString('utf8'));
    expect(body).toMatchObject({ statusCode: 409, code: 'ERR_EXPORT_KEY_COLLISION' });
    expect(body.message).toContain('auth.loginTitle');
    expect(body.message).toContain('authLogin.title');
    expect(body.message).toContain('authLoginTitle');
  });

  it.each([['to', 'string', 'toString'], ['hash', 'code', 'hashCode'], ['locale', 'name', 'localeName']])(
    'refuses a key that is a member of the generated class (%s.%s → %s)',
    async (groupName, entryName, composite) => {
      const project = await createProject(server, key);
      const group = await createGroup(server, key, project.id, groupName);
      await createEntry(server, key, group.id, entryName, 'Text');
      const response = await download(server, key, project.id);
      expect(response.status).toBe(409);
      const body = JSON.parse(response.bytes.toString('utf8'));
      expect(body.code).toBe('ERR_EXPORT_KEY_COLLISION');
      expect(body.message).toContain(composite);
    },
  );

  it("refuses a literal brace, which gen-l10n's default syntax cannot say, listing the entries (409 ERR_CONFLICT), and writes it with ?escaping=true", async () => {
    const project = await createProject(server, key);
    const group = await createGroup(server, key, project.id, 'misc');
    await createEntry(server, key, group.id, 'fine', 'All {good}');
    const broken = await createEntry(server, key, group.id, 'broken', 'Valid base');
    await server.api('PUT', `/entries/${broken.id}/translations`, { key, body: { language: 'de', translation: "Ein '{' it's" } });
    const response = await download(server, key, project.id);
    expect(response.status).toBe(409);
    const body = JSON.parse(response.bytes.toString('utf8'));
    expect(body.code).toBe('ERR_CONFLICT');
    expect(body.details).toEqual([{ path: 'de:misc.broken', message: expect.stringContaining('?escaping=true') }]);
    const escaped = await fetch(`${server.baseUrl}/projects/${project.id}/export/flutter?escaping=true`, { headers: { authorization: `Bearer ${key}` } });
    expect(escaped.status).toBe(200);
    const files = await untar(Buffer.from(await escaped.arrayBuffer()));
    expect(JSON.parse(files.get('app_de.arb')!).miscBroken).toBe("Ein '{' it''s");
  });
});
