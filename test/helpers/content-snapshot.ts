/**
 * A project's content as a client reads it through the API (the project, every group, every entry with
 * its translations), and the changes the change log must hold for the difference between two such reads
 * (CONTRACT "History"): the census test (test/store/census.test.ts) compares them with what a write
 * recorded. Entries made through the API or a JSON import keep no ARB metadata: a delete's `before` says null.
 */
import { expect } from 'vitest';
import type { TestServer } from './server.js';

export interface ProjectFields {
  name: string;
  baseLanguage: string;
  translationLanguages: string[];
  keyStyle: string;
}
export interface GroupFields {
  technicalName: string;
  displayName: string;
  parentId: string | null;
}
export interface EntryFields {
  technicalName: string;
  baseTerm: string;
  contextInfo: string | null;
  groupId: string;
}

/** A translation in history's words (CONTRACT "History", "Review"), as the API shows it. */
export interface TranslationFields {
  text: string;
  state: string;
  outdated: boolean;
  /** the review it keeps: its text, reviewer and time (the log also keeps the base revision it was made against, which the API does not show) */
  review?: { text: string; userId: string; at: string };
}

export interface Snapshot {
  project: ProjectFields;
  groups: Map<string, GroupFields>;
  entries: Map<string, EntryFields>;
  /** `entryId language` → the translation */
  translations: Map<string, TranslationFields>;
}

/** A change as the census expects it, and as it reads a recorded one back. */
export interface CensusChange {
  target: 'project' | 'group' | 'entry' | 'translation';
  op: 'create' | 'update' | 'delete';
  groupId: string | null;
  entryId: string | null;
  language: string | null;
  key: string | null;
  before: unknown;
  after: unknown;
}

const PAGE = 100;

/** Every item of a paged list. */
async function allPages<T>(server: TestServer, key: string, path: string): Promise<T[]> {
  const items: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const response = await server.api('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${PAGE}&offset=${offset}`, { key });
    expect(response.status, `${path}: ${response.text}`).toBe(200);
    items.push(...response.body.result);
    if (response.body.result.length < PAGE) return items;
  }
}

/** The project's content as `key` reads it through the API. */
export async function readSnapshot(server: TestServer, key: string, projectId: string): Promise<Snapshot> {
  const project = await server.api('GET', `/projects/${projectId}`, { key });
  expect(project.status, project.text).toBe(200);
  const { name, baseLanguage, translationLanguages, keyStyle } = project.body;
  const snapshot: Snapshot = { project: { name, baseLanguage, translationLanguages, keyStyle }, groups: new Map(), entries: new Map(), translations: new Map() };
  const visit = async (parentId: string | null) => {
    const children = await allPages<any>(server, key, `/projects/${projectId}/groups${parentId === null ? '' : `?parentId=${parentId}`}`);
    for (const group of children) {
      snapshot.groups.set(group.id, { technicalName: group.technicalName, displayName: group.displayName, parentId: group.parentId });
      for (const entry of await allPages<any>(server, key, `/groups/${group.id}/entries?withTranslations=true`)) {
        snapshot.entries.set(entry.id, { technicalName: entry.technicalName, baseTerm: entry.baseTerm, contextInfo: entry.contextInfo, groupId: entry.groupId });
        for (const translation of entry.translations) snapshot.translations.set(`${entry.id} ${translation.language}`, translationFields(translation));
      }
      await visit(group.id);
    }
  };
  await visit(null);
  return snapshot;
}

/** The names from the top down to the group (the top-level keys' group has none). */
function groupNames(snapshot: Snapshot, groupId: string): string[] {
  const group = snapshot.groups.get(groupId)!;
  return [...(group.parentId === null ? [] : groupNames(snapshot, group.parentId)), group.technicalName];
}

const dotted = (names: readonly string[]) => names.filter((name) => name !== '').join('.');
const groupKey = (snapshot: Snapshot, groupId: string) => dotted(groupNames(snapshot, groupId));
const entryKey = (snapshot: Snapshot, entryId: string) => {
  const entry = snapshot.entries.get(entryId)!;
  return dotted([...groupNames(snapshot, entry.groupId), entry.technicalName]);
};

const byName = <T extends { technicalName: string }>(items: T[]) => items.sort((a, b) => (a.technicalName < b.technicalName ? -1 : 1));
/** A Translation answer in history's words. */
function translationFields(translation: any): TranslationFields {
  const { translation: text, state, outdated, reviewedBy, reviewedAt, reviewedText } = translation;
  return { text, state, outdated, ...(reviewedBy === null ? {} : { review: { text: reviewedText ?? text, userId: reviewedBy.id, at: reviewedAt } }) };
}

/** Recorded fields without what the API cannot show (a kept review's base revision), to compare with changesBetween's. */
export const asShown = (fields: unknown): unknown =>
  JSON.parse(JSON.stringify(fields), (key, value) => {
    if (key !== 'review' || value === null || typeof value !== 'object') return value;
    const { revision: _revision, ...shown } = value as Record<string, unknown>;
    return shown;
  });

/** A deleted entry's `before`: its fields and its translations, by language. */
function removedEntry(snapshot: Snapshot, entryId: string) {
  const translations = [...snapshot.translations]
    .filter(([pair]) => pair.startsWith(`${entryId} `))
    .map(([pair, fields]) => ({ language: pair.slice(entryId.length + 1), ...fields }))
    .sort((a, b) => (a.language < b.language ? -1 : 1));
  return { ...snapshot.entries.get(entryId)!, arbMetadata: null, translations };
}

/** A deleted group's `before`: its fields and its whole subtree. */
function removedGroup(snapshot: Snapshot, groupId: string): GroupFields & { groups: unknown[]; entries: unknown[] } {
  const children = [...snapshot.groups].filter(([, group]) => group.parentId === groupId).map(([id]) => {
    const { parentId: _parent, ...rest } = removedGroup(snapshot, id);
    return rest;
  });
  const entries = [...snapshot.entries].filter(([, entry]) => entry.groupId === groupId).map(([id]) => {
    const { groupId: _group, ...rest } = removedEntry(snapshot, id);
    return rest;
  });
  return { ...snapshot.groups.get(groupId)!, groups: byName(children), entries: byName(entries) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The changes that turn `before` into `after`, as the log records them: one per object created,
 * updated or deleted, except what a delete removed along (a deleted group's subtree, a deleted entry's
 * translations: in its `before`). Translations are compared in the languages both reads list (the API
 * shows no others; a language taken off the list keeps its texts, which is the project's change alone).
 */
export function changesBetween(before: Snapshot, after: Snapshot): CensusChange[] {
  const changes: CensusChange[] = [];
  const none = { groupId: null, entryId: null, language: null };
  if (!same(before.project, after.project)) changes.push({ target: 'project', op: 'update', ...none, key: null, before: before.project, after: after.project });

  const goneGroups = new Set([...before.groups.keys()].filter((id) => !after.groups.has(id)));
  for (const [id, group] of after.groups) {
    const old = before.groups.get(id);
    if (!old) changes.push({ target: 'group', op: 'create', ...none, groupId: id, key: groupKey(after, id), before: null, after: group });
    else if (!same(old, group)) changes.push({ target: 'group', op: 'update', ...none, groupId: id, key: groupKey(after, id), before: old, after: group });
  }
  for (const id of goneGroups) {
    const parentId = before.groups.get(id)!.parentId;
    if (parentId === null || !goneGroups.has(parentId)) changes.push({ target: 'group', op: 'delete', ...none, groupId: id, key: groupKey(before, id), before: removedGroup(before, id), after: null });
  }

  for (const [id, entry] of after.entries) {
    const old = before.entries.get(id);
    const where = { ...none, groupId: entry.groupId, entryId: id, key: entryKey(after, id) };
    if (!old) changes.push({ target: 'entry', op: 'create', ...where, before: null, after: entry });
    else if (!same(old, entry)) changes.push({ target: 'entry', op: 'update', ...where, before: old, after: entry });
  }
  for (const [id, entry] of before.entries) {
    if (after.entries.has(id) || goneGroups.has(entry.groupId)) continue;
    changes.push({ target: 'entry', op: 'delete', ...none, groupId: entry.groupId, entryId: id, key: entryKey(before, id), before: removedEntry(before, id), after: null });
  }

  const listed = new Set(before.project.translationLanguages.filter((language) => after.project.translationLanguages.includes(language)));
  const pairs = new Set([...before.translations.keys(), ...after.translations.keys()]);
  for (const pair of pairs) {
    const [entryId, language] = pair.split(' ') as [string, string];
    if (!listed.has(language) || !after.entries.has(entryId)) continue;
    const old = before.translations.get(pair);
    const now = after.translations.get(pair);
    if (same(old, now)) continue;
    // Outdated is derived (CONTRACT "Review"): a base term edit records the entry's change alone, and
    // the translations it makes outdated none; clearing it (a write, a confirm, a review) is recorded.
    if (old && now && same({ ...old, outdated: true }, now)) continue;
    const op = old === undefined ? 'create' : now === undefined ? 'delete' : 'update';
    changes.push({
      target: 'translation',
      op,
      groupId: after.entries.get(entryId)!.groupId,
      entryId,
      language,
      key: entryKey(after, entryId),
      before: old ?? null,
      after: now ?? null,
    });
  }
  return changes;
}

/** A stable order for comparing lists of changes. */
export const inOrder = (changes: CensusChange[]) =>
  [...changes].sort((a, b) => {
    const rank = (change: CensusChange) => [change.target, change.op, change.groupId ?? '', change.entryId ?? '', change.language ?? ''].join('\u0000');
    return rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0;
  });
