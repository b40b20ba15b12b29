/**
 * The bench's small project (bench/lib/small-project.mjs: 2,000 entries in nested groups, `{name}`
 * placeholders, `@`, apostrophes, ß/ö, seeded through the API as the bench seeds it) round-trips
 * through the import in all four formats: export → import into an empty project with the same
 * languages → export gives the same bytes (the same members with the same bytes for archives).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../bench/lib/api-client.mjs';
import { SMALL_LANGUAGES, seedSmallProject } from '../../bench/lib/small-project.mjs';
import { untar } from '../helpers/consumers.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createProject } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const FORMATS = [
  { format: 'json', archive: false },
  { format: 'vue-i18n', archive: false },
  { format: 'i18next', archive: true },
  { format: 'flutter', archive: true },
];

describe.each(DIALECTS)('the bench\'s small project through the import on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;
  let sourceId: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    // seeding alone takes some 6,000 requests
    owner = await server.user({ dailyQuota: 100_000 });
    sourceId = (await seedSmallProject(apiClient(new URL(server.baseUrl).origin, owner.apiKey))).projectId;
  }, 180_000);
  afterAll(() => server?.close());

  const exportOf = async (projectId: string, format: string) => {
    const response = await fetch(`${server.baseUrl}/projects/${projectId}/export/${format}`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };

  it.each(FORMATS)('$format: export → import into an empty project → the same export', async ({ format, archive }) => {
    const exported = await exportOf(sourceId, format);
    const target = (await createProject(server, owner.apiKey, { name: `Round trip ${format}`, baseLanguage: 'en', translationLanguages: SMALL_LANGUAGES })).id;
    const response = await server.api('POST', `/projects/${target}/import?format=${format}`, {
      key: owner.apiKey,
      rawBody: exported,
      headers: { 'content-type': archive ? 'application/gzip' : 'application/json' },
    });
    expect(response.status, response.text.slice(0, 500)).toBe(200);
    expect(response.body.refused).toEqual([]);
    expect(response.body.entries.created).toBe(2000);
    expect(response.body.translations.created).toBe(4000);
    const again = await exportOf(target, format);
    if (archive) expect(await untar(again)).toEqual(await untar(exported));
    else expect(again.toString('utf8')).toBe(exported.toString('utf8'));
  }, 60_000);
});
