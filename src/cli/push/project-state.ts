/**
 * What the project holds now, read through the public API: its languages, every group and entry by
 * path, and every stored translation. Translations come from the json export (one request) minus the
 * entries each language's untranslated list names, because the export shows a missing translation
 * as the base term; reading every entry one by one would cost a request per entry.
 */
import type { ApiClient } from './api-client.js';

export interface EntryState {
  id: string;
  baseTerm: string;
  contextInfo: string | null;
  /** language → stored translation (absent when there is none) */
  translations: Map<string, string>;
}

export interface ProjectState {
  baseLanguage: string;
  translationLanguages: string[];
  /** dotted group path → group id */
  groups: Map<string, string>;
  /** dotted entry path (groups, then the entry's name) → entry */
  entries: Map<string, EntryState>;
}

interface GroupSummary { id: string; technicalName: string; breadcrumbs: string[] }
interface EntrySummary { id: string; technicalName: string; baseTerm: string; contextInfo: string | null }
type Nested = { [name: string]: string | Nested };

function textAt(document: Nested | undefined, path: string[]): string | undefined {
  let node: string | Nested | undefined = document;
  for (const part of path) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** Reads the project's state; `languages` limits the translations read to the languages being pushed. */
export async function loadProjectState(api: ApiClient, projectId: string, languages: readonly string[]): Promise<ProjectState> {
  const project = encodeURIComponent(projectId);
  const { baseLanguage, translationLanguages } = await api.request<{ baseLanguage: string; translationLanguages: string[] }>('GET', `/projects/${project}`);
  const summaries = await api.request<GroupSummary[]>('GET', `/projects/${project}/groups/summary`);
  const nameOf = new Map(summaries.map((group) => [group.id, group.technicalName]));
  const groups = new Map<string, string>();
  for (const group of summaries) groups.set([...group.breadcrumbs.map((id) => nameOf.get(id)!), group.technicalName].join('.'), group.id);

  const entries = new Map<string, EntryState>();
  const paths = new Map<string, string[]>();
  for (const [groupPath, groupId] of groups) {
    for (const entry of await api.list<EntrySummary>(`/groups/${encodeURIComponent(groupId)}/entries`)) {
      const path = `${groupPath}.${entry.technicalName}`;
      entries.set(path, { id: entry.id, baseTerm: entry.baseTerm, contextInfo: entry.contextInfo, translations: new Map() });
      paths.set(entry.id, path.split('.'));
    }
  }
  const wanted = translationLanguages.filter((language) => languages.includes(language));
  if (wanted.length > 0 && entries.size > 0) {
    const exported = await api.request<Record<string, Nested>>('GET', `/projects/${project}/export/json`);
    for (const language of wanted) {
      const untranslated = new Set((await api.list<{ id: string }>(`/projects/${project}/entries/untranslated?languageCode=${encodeURIComponent(language)}`)).map((entry) => entry.id));
      for (const [id, path] of paths) {
        const text = untranslated.has(id) ? undefined : textAt(exported[language], path);
        if (text !== undefined) entries.get(path.join('.'))!.translations.set(language, text);
      }
    }
  }
  return { baseLanguage, translationLanguages, groups, entries };
}
