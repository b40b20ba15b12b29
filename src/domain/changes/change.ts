/**
 * What a content write does, in the domain's words (CONTRACT "History"): a closed union of changes to
 * a project, a group, an entry or a translation, each with the object's fields before and after. The
 * write path (store/content-writes) records them in the write's own transaction; history, revert and
 * (next) webhooks read them. No table names here: the store decides how they are kept.
 */

/** Who made a change set: an API key, a web session, an import, or a revert. */
export type ChangeSource = 'api' | 'web' | 'import' | 'revert';

export type ReviewState = 'translated' | 'reviewed';

/** The review a translation keeps (CONTRACT "Review"): the text it approved, who, when, against which base term. */
export interface KeptReview {
  text: string;
  userId: string;
  at: string;
  /** the entry's base revision it was made against */
  revision: number;
}

/**
 * A translation as history sees it (CONTRACT "History", "Review"). `review` (additive) is the review it
 * keeps, when it keeps one: what a revert puts back with the state, so undoing an unreview brings back
 * the review that shipped, not one by whoever reverts.
 */
export interface TranslationFields {
  text: string;
  state: ReviewState;
  outdated: boolean;
  review?: KeptReview;
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

/** The dotted key of an object at `path` (group names from the top, then its own); the top-level group's is ''. */
export const keyOf = (path: readonly string[]): string => path.filter((name) => name !== '').join('.');
