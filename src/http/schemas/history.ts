/** The change log's schemas (CONTRACT "History"): change sets, changes, and the filters of their lists. */
import { Type, type TSchema } from 'typebox';
import { CHANGE_OPS, CHANGE_SOURCES, CHANGE_TARGETS } from '../../domain/changes/read-history.js';
import { Nullable, PageQuery, Timestamp } from './common.js';

const [api, web, imported, revert] = CHANGE_SOURCES;
const [project, group, entry, translation] = CHANGE_TARGETS;
const [create, update, remove] = CHANGE_OPS;

export const ChangeSource = Type.Union([Type.Literal(api), Type.Literal(web), Type.Literal(imported), Type.Literal(revert)], {
  description: '`api`: made with an API key; `web`: with a web session; `import`: an import; `revert`: a revert (or a redo)',
});
export const ChangeTarget = Type.Union([Type.Literal(project), Type.Literal(group), Type.Literal(entry), Type.Literal(translation)], { description: 'what was changed' });
export const ChangeOp = Type.Union([Type.Literal(create), Type.Literal(update), Type.Literal(remove)], { description: 'how it was changed' });

export const ChangeAuthor = Type.Object(
  { id: Type.String(), firstName: Type.String(), lastName: Type.String() },
  { description: 'who wrote it (names empty if the account is gone)' },
);

/**
 * The objects' fields. Open (`additionalProperties`): the serializer drops what a schema does not
 * name, and a delete's `before` carries what it removed along (a group's whole subtree), which must
 * come through whole; fields added later (review states) come through too.
 */
const open = <T extends Record<string, TSchema>>(properties: T, description: string) => Type.Object(properties, { additionalProperties: true, description });

const TranslationFields = open(
  { text: Type.String(), state: Type.String({ description: '`translated` or `reviewed`' }), outdated: Type.Boolean() },
  'a translation',
);
const RemovedTranslation = open({ language: Type.String(), text: Type.String(), state: Type.String(), outdated: Type.Boolean() }, 'a translation removed with its entry');
const removedEntryParts = {
  arbMetadata: Type.Optional(Nullable(Type.String({ description: "the ARB metadata an import kept (JSON text); a delete's `before` only" }))),
  translations: Type.Optional(Type.Array(RemovedTranslation, { description: "the translations the delete removed with the entry; a delete's `before` only" })),
};
const EntryFields = open(
  { technicalName: Type.String(), baseTerm: Type.String(), contextInfo: Nullable(Type.String()), groupId: Type.String(), ...removedEntryParts },
  'an entry',
);
const GroupFields = open(
  {
    technicalName: Type.String(),
    displayName: Type.String(),
    parentId: Nullable(Type.String()),
    groups: Type.Optional(
      Type.Array(open({ technicalName: Type.String(), displayName: Type.String() }, 'a sub-group: the same shape without `parentId`, its own `groups` and `entries` within'), {
        description: "the sub-groups the delete removed with the group; a delete's `before` only",
      }),
    ),
    entries: Type.Optional(
      Type.Array(open({ technicalName: Type.String(), baseTerm: Type.String(), contextInfo: Nullable(Type.String()), ...removedEntryParts }, 'an entry of the group'), {
        description: "the group's entries the delete removed with it (with their translations); a delete's `before` only",
      }),
    ),
  },
  'a group',
);
const ProjectFields = open(
  { name: Type.String(), baseLanguage: Type.String(), translationLanguages: Type.Array(Type.String()), keyStyle: Type.String() },
  'the project',
);

/** A change's `before` or `after`: the fields of its target (null for a create's before and a delete's after). */
export const ChangedFields = Nullable(Type.Union([TranslationFields, EntryFields, GroupFields, ProjectFields]));

const CHANGE_SET_EXAMPLE = {
  id: 'ckx2a9v0d0000qz8h1f5c3k7w',
  projectId: 'ckx1z8u9c0000pz7g0e4b2j6v',
  version: 42,
  source: 'api',
  user: { id: 'ckx0y7t8b0000oz6f9d3a1i5u', firstName: 'Ada', lastName: 'Lovelace' },
  apiKeyId: 'ckx0y7t8b0001oz6f2m4n6p8q',
  createdAt: '2026-11-27T15:13:29.000Z',
  summary: { created: 1, updated: 2, deleted: 0 },
  revertOf: null,
  revertedBy: null,
  imported: null,
};

export const ChangeSet = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    version: Type.Integer({ description: "the project's content version after this write (the export ETags rest on it)" }),
    source: ChangeSource,
    user: ChangeAuthor,
    apiKeyId: Nullable(Type.String({ description: 'the API key used; null for a web session' })),
    createdAt: Timestamp,
    summary: Type.Object({ created: Type.Integer(), updated: Type.Integer(), deleted: Type.Integer() }, { description: 'its changes counted by op' }),
    revertOf: Nullable(Type.String({ description: 'the change set this one reverts' })),
    revertedBy: Nullable(Type.String({ description: 'the latest change set that reverted this one (or any of its changes)' })),
    imported: Nullable(
      Type.Object(
        {
          format: Type.String({ description: 'the format the import read (`json`, `i18next`, `vue-i18n` or `flutter`)' }),
          translations: Type.Integer({ description: 'translations it created or replaced' }),
          entries: Type.Integer({ description: 'entries it created or changed' }),
          groups: Type.Integer({ description: 'groups it created' }),
        },
        { description: "an import's: what it imported; null for any other change set, and for imports recorded before tolk kept it" },
      ),
    ),
  },
  { description: 'one write to the project, as one record', examples: [CHANGE_SET_EXAMPLE, { ...CHANGE_SET_EXAMPLE, version: 43, source: 'import', summary: { created: 1254, updated: 0, deleted: 0 }, imported: { format: 'i18next', translations: 1240, entries: 12, groups: 2 } }] },
);

const CHANGE_EXAMPLE = {
  // a save: its change is alone in its set, and takes the set's id
  id: CHANGE_SET_EXAMPLE.id,
  changeSetId: CHANGE_SET_EXAMPLE.id,
  version: 42,
  target: 'translation',
  op: 'update',
  groupId: 'ckx2b0w1e0000rz9i2g6d4l8x',
  entryId: 'ckx2b0w1e0001rz9i5h7j9k1m',
  language: 'de',
  key: 'auth.login.submit',
  before: { text: 'Anmelden', state: 'translated', outdated: false },
  after: { text: 'Einloggen', state: 'translated', outdated: false },
  user: CHANGE_SET_EXAMPLE.user,
  source: 'api',
  createdAt: CHANGE_SET_EXAMPLE.createdAt,
};

export const Change = Type.Object(
  {
    id: Type.String({ description: "opaque: a decimal number as a string; for a translation an import changed, that number and the language (`1234.de`); for a change alone in its change set, that set's id" }),
    changeSetId: Type.String(),
    version: Type.Integer({ description: "its change set's version" }),
    target: ChangeTarget,
    op: ChangeOp,
    groupId: Nullable(Type.String({ description: "the group itself for a group change, else the entry's group at the time; null for the project" })),
    entryId: Nullable(Type.String({ description: 'the entry of an entry or translation change (it may since have been deleted)' })),
    language: Nullable(Type.String({ description: 'the language of a translation change' })),
    key: Nullable(Type.String({ description: 'the dotted path after the change (before it, for a delete); null for the project' })),
    before: ChangedFields,
    after: ChangedFields,
    user: ChangeAuthor,
    source: ChangeSource,
    createdAt: Timestamp,
  },
  {
    description: "one object's change within a change set",
    // an import's: a translation it changed (bundled with the entry's other languages, migration 015)
    examples: [CHANGE_EXAMPLE, { ...CHANGE_EXAMPLE, id: '1234.de', changeSetId: 'ckx2b0w1e0003rz9i4n6p8r0t', version: 43, source: 'import' }],
  },
);

const historyFilters = {
  source: Type.Optional(ChangeSource),
  userId: Type.Optional(Type.String({ description: 'only what this user wrote' })),
  afterVersion: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'only what came after this content version, oldest first (a catch-up feed); without it newest first' }),
  ),
};

export const ChangeSetListQuery = Type.Object({
  ...PageQuery.properties,
  language: Type.Optional(Type.String({ maxLength: 35, description: 'only change sets with a translation change in this language' })),
  ...historyFilters,
});

export const ChangeListQuery = Type.Object({
  ...PageQuery.properties,
  changeSetId: Type.Optional(Type.String({ description: "only this change set's changes" })),
  entryId: Type.Optional(Type.String({ description: "only this entry's changes and its translations' (a deleted entry's too)" })),
  groupId: Type.Optional(Type.String({ description: "only this group's own changes and those of its entries and their translations" })),
  language: Type.Optional(Type.String({ maxLength: 35, description: 'only translation changes in this language' })),
  target: Type.Optional(ChangeTarget),
  op: Type.Optional(ChangeOp),
  ...historyFilters,
});
