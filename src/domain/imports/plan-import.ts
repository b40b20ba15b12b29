/**
 * An import worked out before anything is written: the groups and entries the project lacks, the
 * base terms and translations that are new or differ, the conflicts `mode=keep` leaves, and every
 * item refused with its reason. Nothing is ever deleted; whatever is equal is left alone, so a second
 * import of the same files plans nothing.
 */
import { pathKey, type ImportDocument, type ImportKey, type ImportProblem } from '../../imports/import-document.js';
import { turnTaker } from '../../imports/turns.js';
import { messageLengthProblem, parseMessage } from '../../messages/parse-message.js';
import { MAX_GROUP_DEPTH } from '../groups/group-view.js';
import { newOrderedId } from '../shared/ids.js';
import { isUnstorable, UNSTORABLE_MESSAGE } from '../shared/storable-text.js';
import { nameProblem, type KeyStyle } from '../../names/technical-names.js';
import type { ImportState } from './import-state.js';
import { isReviewedAndCurrent } from './import-review.js';

export type ImportMode = 'keep' | 'overwrite';

export interface PlanProject {
  readonly baseLanguage: string;
  readonly translationLanguages: readonly string[];
  readonly keyStyle: KeyStyle;
}

export interface NewGroup {
  readonly id: string;
  /** the parent's id: an existing group's or one planned before this one; null at the top level */
  readonly parentId: string | null;
  readonly name: string;
}

export interface NewEntry {
  readonly id: string;
  readonly groupId: string;
  readonly name: string;
  readonly baseTerm: string;
  readonly contextInfo: string | null;
  readonly arbMetadata: string | null;
  /** the languages this import gives it a translation in (the rest are its missing translations) */
  readonly translated: string[];
}

export interface EntryChange {
  readonly id: string;
  baseTerm?: string;
  contextInfo?: string | null;
  arbMetadata?: string | null;
}

export interface TranslationWrite {
  readonly entryId: string;
  readonly language: string;
  readonly text: string;
  /** true when the entry has a translation in this language already (an update) */
  readonly replaces: boolean;
}

export interface Conflict {
  readonly key: string;
  readonly language: string;
  readonly stored: string;
  readonly imported: string;
}

export interface ImportPlan {
  /** parents before children */
  readonly groups: NewGroup[];
  /** a new group holding the top-level keys, when the project has none yet and the files have some */
  topLevelGroupId: string | null;
  readonly entries: NewEntry[];
  readonly entryChanges: EntryChange[];
  readonly translations: TranslationWrite[];
  /** markReviewed: every translation the import writes is reviewed by the importer, and so is each of these (CONTRACT "Import") */
  readonly markReviewed: boolean;
  /** markReviewed: the unchanged translations that are not reviewed and current yet (their stored text; `replaces` true) */
  readonly reviews: TranslationWrite[];
  /**
   * The base revision each entry has after the import (CONTRACT "Review": a base term the import changes
   * is a base term edit), for the existing entries its translations name, where it is not 0; absent: 0.
   */
  readonly revisions: Map<string, number>;
  readonly conflicts: Conflict[];
  readonly refused: ImportProblem[];
  readonly warnings: ImportProblem[];
  readonly counts: {
    entriesUnchanged: number;
    translationsUnchanged: number;
  };
}

/** Why a text cannot be stored, or undefined. */
function textProblem(text: string): string | undefined {
  if (isUnstorable(text)) return UNSTORABLE_MESSAGE;
  const tooLong = messageLengthProblem(text);
  if (tooLong) return tooLong;
  const parsed = parseMessage(text);
  if (!parsed.ok) return `not an ICU message at offset ${parsed.error.offset} (character ${parsed.error.column}): ${parsed.error.reason}`;
  return undefined;
}

/** Why a path breaks the naming rules, or undefined. */
function pathProblem(path: readonly string[], style: KeyStyle): string | undefined {
  if (path.length - 1 > MAX_GROUP_DEPTH) return `groups nest at most ${MAX_GROUP_DEPTH} deep; this key is ${path.length - 1} deep`;
  for (let i = 0; i < path.length; i += 1) {
    const kind = i === path.length - 1 ? 'entry' : 'group';
    // A top-level group's name may name an i18next namespace's sub-folders (`components/dialog`).
    const problem = nameProblem(path[i]!, kind, style, { topLevel: i === 0 });
    if (problem) return `the ${kind} name "${path[i]}" ${problem} (keyStyle ${style})`;
  }
  return undefined;
}

/** The project's language a file's tag names (`pt_br`, `pt-BR` → pt-BR), if any. */
function languageMatcher(project: PlanProject): (tag: string) => string | undefined {
  const byLower = new Map([project.baseLanguage, ...project.translationLanguages].map((tag) => [tag.toLowerCase(), tag]));
  return (tag) => byLower.get(tag.replaceAll('_', '-').toLowerCase());
}

/**
 * Says why the texts of `tag` are not taken, once per file they came from (CONTRACT "Import": nothing
 * is skipped silently): the item's key is the file's name and its language '' (a file's item, not a
 * text's), so a client can tell which of its files was not taken (files-account.ts).
 */
function notTaken(list: ImportProblem[], code: string, document: ImportDocument, tag: string, why: (texts: number) => string): void {
  const files = document.files.filter((file) => file.language === tag);
  if (files.length === 0) list.push({ key: '', language: tag, code, message: why(document.texts.get(tag)?.size ?? 0) });
  for (const file of files) list.push({ key: file.name, language: '', code, message: why(file.texts) });
}

/** Plans the import of `document` (paths already on the tree) into a project in `state`. */
export async function planImport(document: ImportDocument, state: ImportState, project: PlanProject, mode: ImportMode, markReviewed = false): Promise<ImportPlan> {
  const plan: ImportPlan = {
    groups: [],
    topLevelGroupId: null,
    entries: [],
    entryChanges: [],
    translations: [],
    markReviewed,
    reviews: [],
    revisions: new Map(),
    conflicts: [],
    refused: [...document.refused],
    warnings: [...document.warnings],
    counts: { entriesUnchanged: 0, translationsUnchanged: 0 },
  };
  const refuse = (key: string, language: string, message: string, code = 'ERR_VALIDATION') => plan.refused.push({ key, language, code, message });
  const base = project.baseLanguage;
  const matchLanguage = languageMatcher(project);

  // The texts of each project language; a language the project lacks is refused as a whole, by file.
  const textsOf = new Map<string, Map<string, string>>();
  const languages = `base ${base}, translations ${project.translationLanguages.join(', ') || 'none'}`;
  for (const [tag, texts] of document.texts) {
    const language = matchLanguage(tag);
    if (!language) {
      if (document.fallbackLanguages.has(tag)) notTaken(plan.warnings, 'WARNING', document, tag, () => `not imported: gen-l10n's fallback file for the regional ${tag}-… files, and ${tag} is not a language of the project (${languages})`);
      else notTaken(plan.refused, 'ERR_VALIDATION', document, tag, (count) => `${tag} is not a language of the project (${languages}): its ${count} text(s) are not imported`);
      continue;
    }
    if (textsOf.has(language)) {
      notTaken(plan.refused, 'ERR_VALIDATION', document, tag, (count) => `a second set of texts for ${language}: its ${count} text(s) are not imported`);
      continue;
    }
    textsOf.set(language, texts);
  }

  // Groups: existing ones by path, new ones planned (parents first) on demand.
  const groupIds = new Map<string, string>([...state.groups].map(([key, group]) => [key, group.id]));
  const groupOf = (groupPath: readonly string[]): string => {
    if (groupPath.length === 0) {
      if (state.topLevelGroupId) return state.topLevelGroupId;
      plan.topLevelGroupId ??= newOrderedId();
      return plan.topLevelGroupId;
    }
    const key = pathKey(groupPath);
    const known = groupIds.get(key);
    if (known) return known;
    const parentId = groupPath.length === 1 ? null : groupOf(groupPath.slice(0, -1));
    const id = newOrderedId();
    plan.groups.push({ id, parentId, name: groupPath.at(-1)! });
    groupIds.set(key, id);
    return id;
  };

  // A path clashes when it is an entry and a group at once (`a.b` a text and `a.b.c` too), or a
  // top-level key named like a top-level group: both would be one key in every export.
  const entryPaths = new Set<string>([...state.entries.keys()]);
  const baseTexts = textsOf.get(base) ?? new Map<string, string>();
  const keyOf = (key: string) => document.keys.get(key)!;
  for (const key of baseTexts.keys()) entryPaths.add(key);
  const groupPaths = new Set<string>(state.groups.keys());
  // Each key's groups: a prefix ends at each NUL of its path key (no name holds one).
  for (const key of baseTexts.keys()) {
    for (let end = key.indexOf('\u0000'); end !== -1; end = key.indexOf('\u0000', end + 1)) groupPaths.add(key.slice(0, end));
  }
  const groupsWithTexts = new Set(groupPaths);
  for (const key of document.groups.keys()) groupPaths.add(key);
  const clash = (item: ImportKey): string | undefined => {
    const key = pathKey(item.path);
    if (groupPaths.has(key)) return `"${item.key}" is a text and a group at once`;
    for (let end = 1; end < item.path.length; end += 1) {
      if (entryPaths.has(pathKey(item.path.slice(0, end)))) return `"${item.path.slice(0, end).join('.')}" is a text and a group at once`;
    }
    return undefined;
  };

  // Entries: the base language's texts.
  const entryIdOf = new Map<string, string>();
  const newEntryOf = new Map<string, NewEntry>();
  const newBaseTerms = new Set<string>();
  // Each text is parsed (~10–100 µs): other requests run in between, every TURN_BUDGET_MS.
  const turn = turnTaker();
  for (const [key, text] of baseTexts) {
    const pause = turn();
    if (pause) await pause;
    const item = keyOf(key);
    const problem = pathProblem(item.path, project.keyStyle) ?? clash(item) ?? textProblem(text);
    if (problem) {
      refuse(item.key, base, problem);
      continue;
    }
    const contextInfo = document.contextInfo.get(key);
    const arbMetadata = document.arbMetadata.get(key);
    const stored = state.entries.get(key);
    if (!stored) {
      const id = newOrderedId();
      plan.entries.push({ id, groupId: groupOf(item.path.slice(0, -1)), name: item.path.at(-1)!, baseTerm: text, contextInfo: contextInfo ?? null, arbMetadata: arbMetadata ?? null, translated: [] });
      entryIdOf.set(key, id);
      newEntryOf.set(key, plan.entries.at(-1)!);
      continue;
    }
    entryIdOf.set(key, stored.id);
    const change: EntryChange = { id: stored.id };
    if (stored.baseTerm !== text) {
      if (mode === 'overwrite') {
        change.baseTerm = text;
        newBaseTerms.add(stored.id);
      } else plan.conflicts.push({ key: item.key, language: base, stored: stored.baseTerm, imported: text });
    }
    // What a format carries beside the text (ARB descriptions, metadata): filled in where none is stored, replaced with overwrite.
    if (contextInfo !== undefined && contextInfo !== stored.contextInfo && (mode === 'overwrite' || stored.contextInfo === null)) change.contextInfo = contextInfo;
    if (arbMetadata !== undefined && arbMetadata !== stored.arbMetadata && (mode === 'overwrite' || stored.arbMetadata === null)) change.arbMetadata = arbMetadata;
    if (Object.keys(change).length > 1) plan.entryChanges.push(change);
    else if (stored.baseTerm === text) plan.counts.entriesUnchanged += 1;
  }
  // Empty groups the files name (`{}`), for the base language.
  for (const path of document.groups.values()) {
    if (path.length === 0 || groupIds.has(pathKey(path)) || groupsWithTexts.has(pathKey(path))) continue;
    const problem = pathProblem([...path, 'entry'], project.keyStyle);
    if (problem) refuse(path.join('.'), base, problem);
    else if (!entryPaths.has(pathKey(path))) groupOf(path);
  }

  // Translations: every other language's texts, onto entries of the project or of the base file.
  for (const [language, texts] of textsOf) {
    if (language === base) continue;
    for (const [key, text] of texts) {
      const pause = turn();
      if (pause) await pause;
      const stored = state.entries.get(key);
      const entryId = entryIdOf.get(key) ?? stored?.id;
      if (entryId === undefined) {
        // Real apps keep translations of keys their base file dropped long ago: skipped and said, never a reason to refuse the rest.
        const why = baseTexts.has(key) ? 'skipped: its base text was refused' : "skipped: no entry has this key, and the base language's file does not hold it";
        plan.warnings.push({ key: keyOf(key).key, language, code: 'WARNING', message: why });
        continue;
      }
      const problem = textProblem(text);
      if (problem) {
        refuse(keyOf(key).key, language, problem);
        continue;
      }
      const current = stored?.translations[language];
      // Written (or reviewed) against the entry's base term as the import leaves it.
      const revision = stored ? stored.baseRevision + (newBaseTerms.has(stored.id) ? 1 : 0) : 0;
      if (revision > 0) plan.revisions.set(entryId, revision);
      if (current === text) {
        plan.counts.translationsUnchanged += 1;
        if (markReviewed && !isReviewedAndCurrent(stored!, language, revision)) plan.reviews.push({ entryId, language, text, replaces: true });
        continue;
      }
      if (current === undefined) {
        // An export writes the base term where a translation is missing: importing it back is no translation.
        const created = newEntryOf.get(key);
        if (text === (created?.baseTerm ?? stored?.baseTerm)) plan.counts.translationsUnchanged += 1;
        else {
          plan.translations.push({ entryId, language, text, replaces: false });
          created?.translated.push(language);
        }
        continue;
      }
      if (mode === 'overwrite') plan.translations.push({ entryId, language, text, replaces: true });
      else plan.conflicts.push({ key: keyOf(key).key, language, stored: current, imported: text });
    }
  }
  return plan;
}
