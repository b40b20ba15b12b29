/**
 * What a push changes, worked out before anything is written: the groups and entries the project
 * lacks, the base terms and context infos that differ, and the translations that are new or differ.
 * Whatever is equal is left alone, so a second push of the same files plans nothing.
 */
import type { ProjectState } from './project-state.js';

/** The files' content by dotted path, whatever format it came in. */
export interface ResolvedInput {
  /** language → dotted entry path → text */
  texts: Map<string, Map<string, string>>;
  /** dotted group paths the base language's files hold (created when missing) */
  groups: Set<string>;
  /** dotted entry path → contextInfo, for formats that carry it (Flutter's template descriptions) */
  contextInfo: Map<string, string | null>;
  /** what the input held but cannot be imported, e.g. an ARB key that fits no group */
  skipped: Skipped[];
}

export interface Skipped {
  language?: string;
  path: string;
  reason: string;
}

export interface NewEntry { path: string; baseTerm: string; contextInfo?: string | null }
export interface EntryUpdate { path: string; id: string; baseTerm?: { from: string; to: string }; contextInfo?: { from: string | null; to: string | null } }
export interface TranslationChange { language: string; path: string; from: string | null; to: string }

export interface PushPlan {
  baseLanguage: string;
  /** the translation languages of the input that the project has */
  languages: string[];
  skippedLanguages: { language: string; reason: string }[];
  /** parents before children */
  groups: string[];
  entries: NewEntry[];
  updates: EntryUpdate[];
  translations: TranslationChange[];
  /** texts equal to the base term where no translation is stored: what an export shows for a missing one */
  fallbacksLeft: number;
  skipped: Skipped[];
}

const depth = (path: string) => path.split('.').length;

/** The plan that brings the project in line with the input, without deleting anything. */
export function planPush(state: ProjectState, input: ResolvedInput): PushPlan {
  const base = state.baseLanguage;
  const plan: PushPlan = { baseLanguage: base, languages: [], skippedLanguages: [], groups: [], entries: [], updates: [], translations: [], fallbacksLeft: 0, skipped: [...input.skipped] };
  for (const language of input.texts.keys()) {
    if (language === base) continue;
    if (state.translationLanguages.includes(language)) plan.languages.push(language);
    else plan.skippedLanguages.push({ language, reason: `not a language of the project (base ${base}, translations ${state.translationLanguages.join(', ') || 'none'})` });
  }

  const baseTexts = input.texts.get(base) ?? new Map<string, string>();
  const wantedGroups = new Set(input.groups);
  for (const path of baseTexts.keys()) {
    const parts = path.split('.');
    for (let end = 1; end < parts.length; end++) wantedGroups.add(parts.slice(0, end).join('.'));
  }
  plan.groups = [...wantedGroups].filter((path) => !state.groups.has(path)).sort((a, b) => depth(a) - depth(b));

  const baseTermOf = new Map<string, string>();
  for (const [path, text] of baseTexts) {
    baseTermOf.set(path, text);
    const entry = state.entries.get(path);
    const contextInfo = input.contextInfo.get(path);
    if (!entry) {
      plan.entries.push(contextInfo === undefined || contextInfo === null ? { path, baseTerm: text } : { path, baseTerm: text, contextInfo });
      continue;
    }
    const update: EntryUpdate = { path, id: entry.id };
    if (entry.baseTerm !== text) update.baseTerm = { from: entry.baseTerm, to: text };
    if (contextInfo !== undefined && contextInfo !== entry.contextInfo) update.contextInfo = { from: entry.contextInfo, to: contextInfo };
    if (update.baseTerm || update.contextInfo) plan.updates.push(update);
  }

  for (const language of plan.languages) {
    for (const [path, text] of input.texts.get(language)!) {
      const entry = state.entries.get(path);
      const baseTerm = baseTermOf.get(path) ?? entry?.baseTerm;
      if (baseTerm === undefined) {
        plan.skipped.push({ language, path, reason: 'no such entry in the project or in the base language\'s file' });
        continue;
      }
      const stored = entry?.translations.get(language);
      if (stored === text) continue;
      if (stored === undefined && text === baseTerm) {
        plan.fallbacksLeft += 1;
        continue;
      }
      plan.translations.push({ language, path, from: stored ?? null, to: text });
    }
  }
  return plan;
}

/** The plan in numbers. */
export function planCounts(plan: PushPlan) {
  return {
    groupsCreated: plan.groups.length,
    entriesCreated: plan.entries.length,
    baseTermsChanged: plan.updates.filter((update) => update.baseTerm).length,
    contextInfosChanged: plan.updates.filter((update) => update.contextInfo).length,
    translationsCreated: plan.translations.filter((change) => change.from === null).length,
    translationsChanged: plan.translations.filter((change) => change.from !== null).length,
    fallbacksLeft: plan.fallbacksLeft,
    skipped: plan.skipped.length,
  };
}
