/** Kept export rows are bounded: 32 MB in all, the least recently kept going first, one project at most half. */
import { describe, expect, it } from 'vitest';
import { KeptProjects, keptRowsOf } from '../../src/exports/kept-rows.js';
import { buildOutline } from '../../src/exports/outline.js';
import type { Db } from '../../src/store/schema.js';

const MB = 1024 * 1024;

/** One entry whose base term is about `megabytes` large (two bytes a character). */
function rowsOf(projectId: string, megabytes: number) {
  const outline = buildOutline([{ id: `${projectId}-g`, parent_id: null, technical_name: 'group' }], [{ id: `${projectId}-e`, groupId: `${projectId}-g`, technicalName: 'entry' }]);
  const row = { id: `${projectId}-e`, groupId: `${projectId}-g`, technicalName: 'entry', baseTerm: 'x'.repeat((megabytes * MB) / 2), contextInfo: null, arbMetadata: null, translations: {} };
  return keptRowsOf(1, outline, [row]);
}

// At the kept version, `at` answers from memory alone: no database is needed to ask what is kept.
const noDatabase = undefined as unknown as Db;
const isKept = async (kept: KeptProjects, projectId: string) => (await kept.at(noDatabase, projectId, 'latest', 1)) !== undefined;

describe('kept export rows', () => {
  it('drops the least recently kept project once all of them pass 32 MB', async () => {
    const kept = new KeptProjects();
    for (const id of ['a', 'b', 'c']) kept.keep(id, 'latest', rowsOf(id, 10));
    expect([await isKept(kept, 'a'), await isKept(kept, 'b'), await isKept(kept, 'c')]).toEqual([true, true, true]);
    kept.keep('d', 'latest', rowsOf('d', 10));
    expect([await isKept(kept, 'a'), await isKept(kept, 'b'), await isKept(kept, 'c'), await isKept(kept, 'd')]).toEqual([false, true, true, true]);
  });

  it('keeps no project larger than half of it, and forgets what that project had kept', async () => {
    const kept = new KeptProjects();
    kept.keep('big', 'latest', rowsOf('big', 1));
    expect(await isKept(kept, 'big')).toBe(true);
    kept.keep('big', 'latest', { ...rowsOf('big', 17), version: 2 });
    expect(await isKept(kept, 'big')).toBe(false);
    expect(await kept.at(noDatabase, 'big', 'latest', 2)).toBeUndefined();
  });

  it('never replaces newer rows by older ones', async () => {
    const kept = new KeptProjects();
    kept.keep('p', 'latest', { ...rowsOf('p', 1), version: 5 });
    kept.keep('p', 'latest', { ...rowsOf('p', 1), version: 4 });
    expect((await kept.at(noDatabase, 'p', 'latest', 5))?.version).toBe(5);
  });

  it('keeps the rows of each shipped texts apart: latest rows never answer for reviewed ones', async () => {
    const kept = new KeptProjects();
    const latest = rowsOf('p', 1);
    const reviewed = rowsOf('p', 1);
    kept.keep('p', 'latest', latest);
    expect(await kept.at(noDatabase, 'p', 'reviewed', 1)).toBeUndefined();
    kept.keep('p', 'reviewed', reviewed);
    expect(await kept.at(noDatabase, 'p', 'latest', 1)).toBe(latest);
    expect(await kept.at(noDatabase, 'p', 'reviewed', 1)).toBe(reviewed);
    expect(await kept.at(noDatabase, 'p', 'reviewed-current', 1)).toBeUndefined();
  });
});
