/** The history in words: who, what a change did to what, a set's counts, an object's text. */
import type { useI18n } from '../../i18n';
import type { Change, ChangedFields, ChangeSet } from '../../types';
import { languageName } from '../editor/names';

type Translate = ReturnType<typeof useI18n>['t'];

/** "Ann Lee"; an account that is gone keeps its id with empty names: "a former user". */
export function personName(user: { firstName: string; lastName: string } | null | undefined, t: Translate): string {
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : '';
  return name || t('history.common.formerUser');
}

export function formatNumber(value: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(value);
}

/** One field of a change's `before` or `after`, whatever its target. */
export function fieldOf(fields: ChangedFields | undefined, name: string): unknown {
  return fields ? (fields as Record<string, unknown>)[name] : undefined;
}

/** The text that stands for an object: a translation's text, an entry's base term, a group's display name, the project's name. */
export function fieldsText(target: Change['target'], fields: ChangedFields | undefined): string | null {
  if (!fields) return null;
  const name = { translation: 'text', entry: 'baseTerm', group: 'displayName', project: 'name' }[target];
  const value = fieldOf(fields, name);
  return typeof value === 'string' ? value : null;
}

/** What a change did, as the History and a set's list name it. */
export type ChangeAction = 'created' | 'edited' | 'deleted' | 'reviewed' | 'unreviewed' | 'confirmed' | 'reverted';

export function actionOf(change: Change): ChangeAction {
  if (change.source === 'revert') return 'reverted';
  if (change.op === 'create') return 'created';
  if (change.op === 'delete') return 'deleted';
  if (change.target === 'translation' && fieldOf(change.before, 'text') === fieldOf(change.after, 'text')) {
    const [before, after] = [fieldOf(change.before, 'state'), fieldOf(change.after, 'state')];
    if (before !== 'reviewed' && after === 'reviewed') return 'reviewed';
    if (before === 'reviewed' && after !== 'reviewed') return 'unreviewed';
    if (fieldOf(change.before, 'outdated') === true && fieldOf(change.after, 'outdated') === false) return 'confirmed';
  }
  return 'edited';
}

/** What a change touched: "German translation of home.title", "entry home.title", "group home", "the project". */
export function objectName(change: Pick<Change, 'target' | 'key' | 'language'>, t: Translate, locale: string): string {
  const key = change.key ?? '';
  switch (change.target) {
    case 'translation':
      return t('history.change.translation', { language: languageName(change.language ?? '', locale), key });
    case 'entry':
      return t('history.change.entry', { key });
    case 'group':
      return t('history.change.group', { key });
    case 'project':
      return t('history.change.project');
  }
}

/** One change in words, for a set's list: "German translation of home.title: edited". */
export function changeLine(change: Change, t: Translate, locale: string): string {
  return t('history.change.line', { what: objectName(change, t, locale), action: t(`history.action.${actionOf(change)}`) });
}

/** A set's counts in words, the zero ones left out: "1,200 added, 40 changed". */
export function countsText(summary: ChangeSet['summary'], t: Translate, locale: string): string {
  const parts: string[] = [];
  if (summary.created > 0) parts.push(t('history.count.created', { number: formatNumber(summary.created, locale) }));
  if (summary.updated > 0) parts.push(t('history.count.updated', { number: formatNumber(summary.updated, locale) }));
  if (summary.deleted > 0) parts.push(t('history.count.deleted', { number: formatNumber(summary.deleted, locale) }));
  return parts.join(', ');
}

/** What an import imported, the zero ones left out: "1,240 translations, 12 entries, 2 groups"; '' when it says nothing. */
export function importedText(imported: NonNullable<ChangeSet['imported']>, t: Translate, locale: string): string {
  const parts: string[] = [];
  for (const what of ['translations', 'entries', 'groups'] as const) {
    const count = imported[what];
    if (count > 0) parts.push(t(`history.imported.${what}`, { count, number: formatNumber(count, locale) }));
  }
  return parts.join(', ');
}
