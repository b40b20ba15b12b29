/** Names shown for languages and groups in the editor. */
import type { GroupSummary } from '../../types';

const displayNames = new Map<string, Intl.DisplayNames>();

/** "German" for "de" (in the UI language); the tag itself when the browser has no name for it. */
export function languageName(tag: string, uiLocale: string): string {
  let names = displayNames.get(uiLocale);
  if (!names) {
    names = new Intl.DisplayNames([uiLocale], { type: 'language', fallback: 'code' });
    displayNames.set(uiLocale, names);
  }
  try {
    return names.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** "Parent / Child / Group": the group's place in the tree. */
export function groupPath(group: GroupSummary): string {
  return [...group.breadcrumbNames, group.displayName].join(' / ');
}

/** A camelCase technical name suggested from a display name ("Sign-in page" → "signInPage"). */
export function suggestTechnicalName(displayName: string): string {
  const words = displayName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  const joined = words
    .map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase()))
    .join('');
  return joined.replace(/^[^a-z]+/, '');
}
