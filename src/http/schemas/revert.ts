/** The revert routes' schemas (CONTRACT "History": revert of a change set or of one change). */
import { Type } from 'typebox';
import { Nullable, Timestamp } from './common.js';
import { ChangeAuthor, ChangedFields, ChangeSet, ChangeTarget } from './history.js';

export const RevertQuery = Type.Object({
  dryRun: Type.Optional(Type.Boolean({ default: false, description: 'plan only: answer what would be restored, unchanged and in conflict; write nothing' })),
  onConflict: Type.Optional(
    Type.Union([Type.Literal('abort'), Type.Literal('skip')], {
      default: 'abort',
      description: '`abort` (default): any conflict → 409, nothing written; `skip`: revert the rest and list the conflicts',
    }),
  ),
});

const RevertConflict = Type.Object(
  {
    changeId: Type.String({ description: 'the change whose object is in conflict' }),
    target: ChangeTarget,
    key: Nullable(Type.String()),
    language: Nullable(Type.String()),
    expected: ChangedFields,
    current: ChangedFields,
    changedBy: Nullable(ChangeAuthor),
    changedAt: Nullable(Timestamp),
  },
  { description: 'an object changed since (by anyone): never overwritten; `expected` is what the change wrote, `current` the object now; who changed it last and when' },
);

const EXAMPLE = {
  dryRun: false,
  changeSet: {
    id: 'ckx3c1x2f0000sz0j3h7e5m9y',
    projectId: 'ckx1z8u9c0000pz7g0e4b2j6v',
    version: 43,
    source: 'revert',
    user: { id: 'ckx0y7t8b0000oz6f9d3a1i5u', firstName: 'Ada', lastName: 'Lovelace' },
    apiKeyId: 'ckx0y7t8b0001oz6f2m4n6p8q',
    createdAt: '2026-11-27T15:20:00.000Z',
    summary: { created: 0, updated: 1, deleted: 0 },
    revertOf: 'ckx2a9v0d0000qz8h1f5c3k7w',
    revertedBy: null,
  },
  restored: 1,
  unchanged: 0,
  conflicts: [
    {
      changeId: '1235',
      target: 'translation',
      key: 'auth.login.title',
      language: 'de',
      expected: { text: 'Anmeldung', state: 'translated', outdated: false },
      current: { text: 'Login', state: 'translated', outdated: false },
      changedBy: { id: 'ckx0y7t8b0002oz6f4r6s8t0v', firstName: 'Ann', lastName: 'Lee' },
      changedAt: '2026-11-27T15:18:41.000Z',
    },
  ],
  created: [],
  totals: { conflicts: 1 },
};

export const RevertAnswer = Type.Object(
  {
    dryRun: Type.Boolean(),
    changeSet: Type.Union([ChangeSet, Type.Null()], { description: 'the new change set (`source: revert`); null in a dry run or when nothing was written' }),
    restored: Type.Integer({ description: 'objects put back (or, in a dry run, that would be)' }),
    unchanged: Type.Integer({ description: 'objects already as the change found them' }),
    conflicts: Type.Array(RevertConflict, { description: 'at most 1,000 (totals.conflicts counts them all)' }),
    created: Type.Array(
      Type.Object({ target: Type.Union([Type.Literal('group'), Type.Literal('entry')]), key: Type.String(), id: Nullable(Type.String()) }),
      { description: 'each deleted group or entry brought back under a new id (its subtree with it); id null in a dry run; at most 1,000' },
    ),
    totals: Type.Object({ conflicts: Type.Integer() }),
  },
  { description: 'what the revert put back, found unchanged, and left alone as conflicts', examples: [EXAMPLE] },
);
