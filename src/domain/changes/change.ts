/**
 * What a content write does, in the domain's words (CONTRACT "History"): a closed union of changes to
 * a project, a group, an entry or a translation, each with the object's fields before and after. The
 * write path (store/content-writes) records them in the write's own transaction; history, revert and
 * (next) webhooks read them. No table names here: the store decides how they are kept.
 */

/** Who made a change set: an API key, a web session, an import, or a revert. */
export type ChangeSource = 'api' | 'web' | 'import' | 'revert';

/** A translation as history sees it; `state`/`outdated` are those of review (issue 33): `translated`, false until then. */
export interface TranslationFields {
  text: string;
  state: 'translated' | 'reviewed';
  outdated: boolean;
}

export interface EntryFields {
  technicalName: string;
  baseTerm: string;
  contextInfo: string | null;
  groupId: string;
}

export interface GroupFields {
  technicalName: string;
  displayName: string;
  parentId: string | null;
}

/** `baseLanguage` beyond the contract's three: a PATCH may change it too, and a revert must put it back. */
export interface ProjectFields {
  name: string;
  baseLanguage: string;
  translationLanguages: string[];
  keyStyle: string;
}

/** A translation removed along with its entry: enough to bring it back. */
export interface RemovedTranslation extends TranslationFields {
  language: string;
}

/** A deleted entry's `before`: its fields and what went with it (its translations, the ARB metadata an import kept). */
export interface RemovedEntry extends EntryFields {
  arbMetadata: string | null;
  translations: RemovedTranslation[];
}

/** A deleted group's `before`: its fields and its whole subtree. */
export interface RemovedGroup extends GroupFields {
  groups: RemovedSubgroup[];
  entries: Omit<RemovedEntry, 'groupId'>[];
}

export interface RemovedSubgroup extends Omit<RemovedGroup, 'parentId'> {}

interface Located {
  /** the dotted path after the change (before it, for a delete) */
  key: string;
}

export type TranslationChange = Located & {
  target: 'translation';
  entryId: string;
  /** the entry's group */
  groupId: string;
  language: string;
} & (
    | { op: 'create'; before: null; after: TranslationFields }
    | { op: 'update'; before: TranslationFields; after: TranslationFields }
    | { op: 'delete'; before: TranslationFields; after: null }
  );

export type EntryChange = Located & {
  target: 'entry';
  entryId: string;
  groupId: string;
} & (
    | { op: 'create'; before: null; after: EntryFields }
    | { op: 'update'; before: EntryFields; after: EntryFields }
    | { op: 'delete'; before: RemovedEntry; after: null }
  );

export type GroupChange = Located & {
  target: 'group';
  groupId: string;
} & (
    | { op: 'create'; before: null; after: GroupFields }
    | { op: 'update'; before: GroupFields; after: GroupFields }
    | { op: 'delete'; before: RemovedGroup; after: null }
  );

export interface ProjectChange {
  target: 'project';
  op: 'update';
  key: null;
  before: ProjectFields;
  after: ProjectFields;
}

export type Change = TranslationChange | EntryChange | GroupChange | ProjectChange;

/** A translation's history fields from its stored text (states arrive with review, issue 33). */
export const translationFields = (text: string): TranslationFields => ({ text, state: 'translated', outdated: false });

/** The dotted key of an object at `path` (group names from the top, then its own); the top-level group's is ''. */
export const keyOf = (path: readonly string[]): string => path.filter((name) => name !== '').join('.');
