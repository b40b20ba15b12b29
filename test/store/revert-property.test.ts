/**
 * The revert's property (issue 32), on both stores: random writes S, an import I (mode=overwrite),
 * random writes T, then revert(I) with onConflict=skip. Every cell T left as I wrote it is back to its
 * value before I; every cell T changed is listed as a conflict and left as T wrote it (or counted
 * unchanged when T itself put back the value before I); revert(revert(I)) gives the state after I on
 * the cells T did not change. Cells are (entry, language) translations; absent is a value too.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { createEntry, createProjectWithGroup } from '../helpers/seed.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo'] as const;
const LANGUAGES = ['de', 'pt-BR'] as const;
const CELLS = NAMES.flatMap((name) => LANGUAGES.map((language) => `${name}/${language}`));
/** Few values, so that writes often meet the same text again (no-ops, and T putting back what I replaced). */
const text = fc.constantFrom('Eins', 'Zwei', 'Drei', null);
const write = fc.record({ cell: fc.constantFrom(...CELLS), text });
const writes = fc.array(write, { maxLength: 8 });
const importTexts = fc.dictionary(fc.constantFrom(...CELLS), fc.constantFrom('Eins', 'Zwei', 'Drei', 'Vier'), { minKeys: 1, maxKeys: CELLS.length });

type State = Map<string, string | null>;

describe.each(DIALECTS)('revert(import) as a property on %s', (dialect) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startServer(dialect);
    owner = await server.user();
  });
  afterAll(() => server?.close());

  it('clean cells come back, changed ones are conflicts left alone, and the redo gives the import back', async () => {
    await fc.assert(
      fc.asyncProperty(writes, importTexts, writes, async (before, imported, after) => {
        const { project, group } = await createProjectWithGroup(server, owner.apiKey);
        const ids = new Map<string, string>();
        for (const name of NAMES) ids.set(name, (await createEntry(server, owner.apiKey, group.id, name, `Text ${name}`)).id);
        const apply = async (list: readonly { cell: string; text: string | null }[]) => {
          for (const { cell, text: value } of list) {
            const [name, language] = cell.split('/') as [string, string];
            const path = `/entries/${ids.get(name)}/translations`;
            const response =
              value === null
                ? await server.api('DELETE', path, { key: owner.apiKey, body: { language } })
                : await server.api('PUT', path, { key: owner.apiKey, body: { language, translation: value } });
            expect(response.status, response.text).toBeLessThan(300);
          }
        };
        const state = async (): Promise<State> => {
          const rows = await server.store.db.selectFrom('translations').select(['entry_id', 'language', 'translation']).where('entry_id', 'in', [...ids.values()]).execute();
          const found = new Map(rows.map((row) => [`${row.entry_id}/${row.language}`, row.translation]));
          return new Map(CELLS.map((cell) => [cell, found.get(`${ids.get(cell.split('/')[0]!)}/${cell.split('/')[1]}`) ?? null]));
        };

        await apply(before);
        const beforeImport = await state();
        const body: Record<string, Record<string, Record<string, string>>> = { en: { main: Object.fromEntries(NAMES.map((name) => [name, `Text ${name}`])) } };
        for (const [cell, value] of Object.entries(imported)) {
          const [name, language] = cell.split('/') as [string, string];
          ((body[language] ??= { main: {} }).main as Record<string, string>)[name] = value;
        }
        const response = await server.api('POST', `/projects/${project.id}/import?format=json&mode=overwrite`, { key: owner.apiKey, body });
        expect(response.status, response.text).toBe(200);
        const afterImport = await state();
        await apply(after);
        const afterWrites = await state();

        const setId: string | null = response.body.changeSetId;
        if (setId === null) {
          // the import changed nothing: nothing to revert
          expect([...afterImport]).toEqual([...beforeImport]);
          return;
        }
        const reverted = await server.api('POST', `/change-sets/${setId}/revert?onConflict=skip`, { key: owner.apiKey });
        expect(reverted.status, reverted.text).toBe(200);
        const afterRevert = await state();
        const conflicts = new Set((reverted.body.conflicts as any[]).map((c) => `${c.key.split('.').at(-1)}/${c.language}`));
        const changedByImport = CELLS.filter((cell) => beforeImport.get(cell) !== afterImport.get(cell));
        for (const cell of CELLS) {
          const clean = afterWrites.get(cell) === afterImport.get(cell);
          if (clean) expect(afterRevert.get(cell), cell).toBe(beforeImport.get(cell));
          else expect(afterRevert.get(cell), cell).toBe(afterWrites.get(cell));
          const inConflict = changedByImport.includes(cell) && !clean && afterWrites.get(cell) !== beforeImport.get(cell);
          expect(conflicts.has(cell), `${cell} listed as a conflict`).toBe(inConflict);
        }

        if (reverted.body.changeSet === null) return;
        const redone = await server.api('POST', `/change-sets/${reverted.body.changeSet.id}/revert?onConflict=skip`, { key: owner.apiKey });
        expect(redone.status, redone.text).toBe(200);
        expect(redone.body.totals.conflicts).toBe(0);
        const afterRedo = await state();
        for (const cell of CELLS) {
          if (afterWrites.get(cell) === afterImport.get(cell)) expect(afterRedo.get(cell), cell).toBe(afterImport.get(cell));
          else expect(afterRedo.get(cell), cell).toBe(afterWrites.get(cell));
        }
      }),
      { numRuns: 12, seed: 32 },
    );
  });
});
