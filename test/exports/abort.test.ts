import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../src/domain/shared/ids.js';
import { DIALECTS } from '../helpers/dialects.js';
import { createGroup, createProject } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Enough content that an export is still being written when its client gives up. */
const ENTRIES = 4000;

describe.each(DIALECTS)('exports whose clients go away, on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let projectId: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    key = (await server.user()).apiKey;
    const project = await createProject(server, key, { translationLanguages: ['de', 'fr', 'pt-BR'] });
    projectId = project.id;
    const group = await createGroup(server, key, projectId, 'bulk');
    // Written straight to the store: thousands of API calls would only slow the test down.
    const now = nowIso();
    const rows = Array.from({ length: ENTRIES }, (_, i) => ({
      id: newId(), project_id: projectId, group_id: group.id, technical_name: `entry${i}`, base_term: `Text number ${i} `.repeat(8),
      base_term_key: `text number ${i} `.repeat(8), context_info: null, created_at: now, updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) await server.store.db.insertInto('entries').values(rows.slice(i, i + 500)).execute();
  });
  afterAll(() => server?.close());

  it.each(['i18next', 'flutter', 'json', 'vue-i18n'])('survives many %s downloads aborted mid-stream, and keeps serving', async (format) => {
    const aborted = Array.from({ length: 12 }, async (_, i) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20 + i * 15);
      try {
        const response = await fetch(`${server.baseUrl}/projects/${projectId}/export/${format}`, {
          headers: { authorization: `Bearer ${key}` },
          signal: controller.signal,
        });
        await response.arrayBuffer();
      } catch {
        // the abort itself
      }
    });
    await Promise.all(aborted);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const complete = await fetch(`${server.baseUrl}/projects/${projectId}/export/${format}`, { headers: { authorization: `Bearer ${key}` } });
    expect(complete.status).toBe(200);
    expect((await complete.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
  });
});
