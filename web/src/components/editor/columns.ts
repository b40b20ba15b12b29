/** The grid's columns: technical name, context, base term, then one per translation language. */
import type { Capabilities, Entry, Project } from '../../types';

export type ColumnKind = 'technicalName' | 'contextInfo' | 'baseTerm' | 'translation';

export interface Column {
  key: string;
  kind: ColumnKind;
  /** the translation language (translation columns) or the base language (base term) */
  language: string | null;
  label: string;
  editable: boolean;
}

export function buildColumns(
  project: Project,
  capabilities: Capabilities | null,
  labels: { technicalName: string; contextInfo: string; baseTerm: (language: string) => string; language: (tag: string) => string },
): Column[] {
  const canEditEntries = capabilities?.canEditEntries ?? false;
  const canTranslate = capabilities?.canTranslate ?? false;
  return [
    { key: 'technicalName', kind: 'technicalName', language: null, label: labels.technicalName, editable: canEditEntries },
    { key: 'contextInfo', kind: 'contextInfo', language: null, label: labels.contextInfo, editable: canEditEntries },
    { key: 'baseTerm', kind: 'baseTerm', language: project.baseLanguage, label: labels.baseTerm(project.baseLanguage), editable: canEditEntries },
    ...project.translationLanguages.map(
      (language): Column => ({ key: `t:${language}`, kind: 'translation', language, label: labels.language(language), editable: canTranslate }),
    ),
  ];
}

export function translationOf(entry: Entry, language: string) {
  return entry.translations.find((translation) => translation.language === language);
}

/** The text a cell shows and edits. */
export function cellValue(entry: Entry, column: Column): string {
  switch (column.kind) {
    case 'technicalName':
      return entry.technicalName;
    case 'contextInfo':
      return entry.contextInfo ?? '';
    case 'baseTerm':
      return entry.baseTerm;
    case 'translation':
      return translationOf(entry, column.language ?? '')?.translation ?? '';
  }
}

export const statusKey = (entryId: string, column: Column): string => `${entryId}|${column.key}`;
