/** The census's cases of reverts: of a set (an import, a group delete, a revert) and of one change. */
import { expect } from 'vitest';
import { setTranslation } from '../../helpers/seed.js';
import { NO_SUCH_ID, overwriteImport, written, type CensusCase, type Prepared } from './world.js';

const REVERT_SET = 'POST /change-sets/{id}/revert';
const REVERT_CHANGE = 'POST /changes/{id}/revert';

/** The revert's answer names the set the census found. */
const answerNamesSet: Prepared['check'] = (response, set) => {
  expect(response.body.changeSet?.id ?? null).toBe(set?.id ?? null);
  if (set) expect(response.body.changeSet.summary).toEqual(set.summary);
};

export const revertCases: CensusCase[] = [
  {
    operation: REVERT_SET, name: 'an overwrite import undone (source revert)', status: 200, changes: 3,
    prepare: async (context) => {
      const imported = await overwriteImport(context);
      return { source: 'revert', revertOf: imported.id, request: { method: 'POST', path: `/change-sets/${imported.id}/revert` }, check: answerNamesSet };
    },
  },
  {
    operation: REVERT_SET, name: 'a group delete undone: its subtree back under new ids, one change per object', status: 200, changes: 5,
    prepare: async (context) => {
      const deleted = await written(context, 'DELETE', `/groups/${context.world.main.id}`);
      // main, sub, title, greeting and greeting's de
      return { source: 'revert', revertOf: deleted.id, request: { method: 'POST', path: `/change-sets/${deleted.id}/revert` }, check: answerNamesSet };
    },
  },
  {
    operation: REVERT_SET, name: 'an import that created an entry with a translation undone: one change, the translation in its before', status: 200, changes: 1,
    prepare: async (context) => {
      const imported = await written(context, 'POST', `/projects/${context.world.project.id}/import?format=json`, { en: { other: { fresh: 'Fresh' } }, de: { other: { fresh: 'Frisch' } } });
      return { source: 'revert', revertOf: imported.id, request: { method: 'POST', path: `/change-sets/${imported.id}/revert` }, check: answerNamesSet };
    },
  },
  {
    operation: REVERT_SET, name: 'a revert undone (a redo), from the web app', status: 200, changes: 3,
    prepare: async (context) => {
      const imported = await overwriteImport(context);
      const reverted = await written(context, 'POST', `/change-sets/${imported.id}/revert`);
      return { caller: 'web', source: 'revert', revertOf: reverted.id, request: { method: 'POST', path: `/change-sets/${reverted.id}/revert` }, check: answerNamesSet };
    },
  },
  {
    operation: REVERT_SET, name: 'one already undone', status: 200, changes: 0,
    prepare: async (context) => {
      const imported = await overwriteImport(context);
      await written(context, 'POST', `/change-sets/${imported.id}/revert`);
      return { request: { method: 'POST', path: `/change-sets/${imported.id}/revert` }, check: answerNamesSet };
    },
  },
  {
    operation: REVERT_SET, name: 'a dry run', status: 200, changes: 0,
    prepare: async (context) => {
      const imported = await overwriteImport(context);
      return { request: { method: 'POST', path: `/change-sets/${imported.id}/revert?dryRun=true` }, check: (response) => expect(response.body).toMatchObject({ dryRun: true, changeSet: null, restored: 3 }) };
    },
  },
  {
    operation: REVERT_SET, name: 'a later edit of one object, onConflict=abort', status: 409, changes: 0,
    prepare: async (context) => {
      const imported = await overwriteImport(context);
      await setTranslation(context.server, context.ownerKey, context.world.greeting.id, 'de', 'Grüß Gott');
      return { request: { method: 'POST', path: `/change-sets/${imported.id}/revert` } };
    },
  },
  {
    operation: REVERT_SET, name: 'a later edit of one object, onConflict=skip: the rest restored', status: 200, changes: 2,
    prepare: async (context) => {
      const imported = await overwriteImport(context);
      await setTranslation(context.server, context.ownerKey, context.world.greeting.id, 'de', 'Grüß Gott');
      return {
        source: 'revert',
        revertOf: imported.id,
        request: { method: 'POST', path: `/change-sets/${imported.id}/revert?onConflict=skip` },
        check: (response, set) => {
          answerNamesSet(response, set);
          expect(response.body.totals.conflicts).toBe(1);
        },
      };
    },
  },
  {
    operation: REVERT_SET, name: 'entry changes, by a translator', status: 403, changes: 0,
    prepare: async (context) => {
      const imported = await overwriteImport(context);
      return { caller: 'translator', request: { method: 'POST', path: `/change-sets/${imported.id}/revert` } };
    },
  },
  {
    operation: REVERT_SET, name: 'no such change set', status: 404, changes: 0,
    prepare: async () => ({ request: { method: 'POST', path: `/change-sets/${NO_SUCH_ID}/revert` } }),
  },
  {
    operation: REVERT_CHANGE, name: "one translation change, by a translator (the set's revertOf)", status: 200, changes: 1,
    prepare: async (context) => {
      const updated = await written(context, 'PUT', `/entries/${context.world.greeting.id}/translations`, { language: 'de', translation: 'Servus' });
      return { caller: 'translator', source: 'revert', revertOf: updated.id, request: { method: 'POST', path: `/changes/${updated.changeIds[0]}/revert` }, check: answerNamesSet };
    },
  },
  {
    operation: REVERT_CHANGE, name: 'an entry create undone: the entry deleted', status: 200, changes: 1,
    prepare: async (context) => {
      const created = await written(context, 'POST', `/groups/${context.world.other.id}/entries`, { technicalName: 'fleeting', baseTerm: 'Soon gone' });
      return { source: 'revert', revertOf: created.id, request: { method: 'POST', path: `/changes/${created.changeIds[0]}/revert` }, check: answerNamesSet };
    },
  },
  {
    operation: REVERT_CHANGE, name: 'a dry run', status: 200, changes: 0,
    prepare: async (context) => {
      const renamed = await written(context, 'PATCH', `/projects/${context.world.project.id}`, { name: 'Renamed' });
      return { request: { method: 'POST', path: `/changes/${renamed.changeIds[0]}/revert?dryRun=true` }, check: (response) => expect(response.body).toMatchObject({ dryRun: true, changeSet: null, restored: 1 }) };
    },
  },
  {
    operation: REVERT_CHANGE, name: 'a later edit', status: 409, changes: 0,
    prepare: async (context) => {
      const renamed = await written(context, 'PATCH', `/entries/${context.world.title.id}`, { baseTerm: 'Heading' });
      await written(context, 'PATCH', `/entries/${context.world.title.id}`, { baseTerm: 'Caption' });
      return { request: { method: 'POST', path: `/changes/${renamed.changeIds[0]}/revert` } };
    },
  },
  {
    operation: REVERT_CHANGE, name: 'a project change, by an editor', status: 403, changes: 0,
    prepare: async (context) => {
      const renamed = await written(context, 'PATCH', `/projects/${context.world.project.id}`, { name: 'Renamed' });
      return { caller: 'editor', request: { method: 'POST', path: `/changes/${renamed.changeIds[0]}/revert` } };
    },
  },
  {
    operation: REVERT_CHANGE, name: 'no such change', status: 404, changes: 0,
    prepare: async () => ({ request: { method: 'POST', path: '/changes/999999999/revert' } }),
  },
];
