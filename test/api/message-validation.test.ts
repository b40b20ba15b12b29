/**
 * Every write of a base term or a translation is an ICU message (CONTRACT, "Messages"): anything else
 * is refused with 400 ERR_VALIDATION naming the field, the offset and what was expected, and nothing
 * is stored; valid messages are stored exactly as written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup } from '../helpers/seed.js';
import { startServerWithUsers, type TestServer, type TestUser } from '../helpers/server.js';

describe.each(DIALECTS)('message validation on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    ({ server, owner } = await startServerWithUsers(dialect));
  });
  afterAll(() => server?.close());

  const expectRefused = (response: { status: number; body: any }, path: string, ...mentions: string[]) => {
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('ERR_VALIDATION');
    expect(response.body.details[0].path).toBe(path);
    for (const mention of mentions) expect(response.body.details[0].message).toContain(mention);
  };

  it('refuses an i18next placeholder in a new entry with the offset and the hint, and stores nothing', async () => {
    const { group } = await createProjectWithGroup(server, owner.apiKey);
    const response = await server.api('POST', `/groups/${group.id}/entries`, { key: owner.apiKey, body: { technicalName: 'greeting', baseTerm: 'Hello {{name}}' } });
    expectRefused(response, '/body/baseTerm', 'offset 6', 'write {name}');
    const list = await server.api('GET', `/groups/${group.id}/entries`, { key: owner.apiKey });
    expect(list.body.result).toEqual([]);
  });

  it('refuses invalid base terms on PATCH and invalid translations on PUT, keeping what was stored', async () => {
    const { group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'itemCount', '{count, plural, one {# item} other {# items}}');
    const patch = await server.api('PATCH', `/entries/${entry.id}`, { key: owner.apiKey, body: { baseTerm: '{count, plural, one {# item}}' } });
    expectRefused(patch, '/body/baseTerm', "'other'");
    const put = await server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de', translation: 'Am {d, date, short}' } });
    expectRefused(put, '/body/translation', 'inline formats', 'write {d}');
    const read = await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey });
    expect(read.body.baseTerm).toBe('{count, plural, one {# item} other {# items}}');
    expect(read.body.translations).toEqual([]);
  });

  it('counts the offset in UTF-16 units and the character in code points', async () => {
    const { group } = await createProjectWithGroup(server, owner.apiKey);
    const entry = await createEntry(server, owner.apiKey, group.id, 'emojiText', 'Fine');
    const put = await server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de', translation: '😀 é {x' } });
    expectRefused(put, '/body/translation', 'offset 5', 'character 5');
  });

  it('stores plain texts, apostrophes, quoted braces and messages exactly as written', async () => {
    const { group } = await createProjectWithGroup(server, owner.apiKey);
    const texts = ['Plain text', "Don't stop", "Braces '{' and '}' and it''s", 'Hi {name}, {n, select, a {A} other {#}}', '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}'];
    for (const [index, text] of texts.entries()) {
      const entry = await createEntry(server, owner.apiKey, group.id, `text${'abcde'[index]}Item`, text);
      const put = await server.api('PUT', `/entries/${entry.id}/translations`, { key: owner.apiKey, body: { language: 'de', translation: text } });
      expect(put.status, put.text).toBe(200);
      expect(put.body.translation).toBe(text);
      expect((await server.api('GET', `/entries/${entry.id}`, { key: owner.apiKey })).body.baseTerm).toBe(text);
    }
  });
});
