/** The locale catalogue (GET /locales), read once and shared: the tags a language picker offers. */
import { ref, type Ref } from 'vue';
import { api } from '../../api';
import { i18next } from '../../i18n';
import type { Locale } from '../../types';

export interface LocaleOption {
  tag: string;
  name: string;
}

const options = ref<LocaleOption[]>([]);
let loading: Promise<void> | null = null;

/** All tags (languages and their regions), in the catalogue's order. */
export function useLocaleOptions(): Ref<LocaleOption[]> {
  loading ??= api<Locale[]>('/locales')
    .then((locales) => {
      options.value = locales.flatMap((locale) => [
        { tag: locale.code, name: locale.name },
        ...(locale.regions ?? []).map((region) => ({ tag: region.code, name: region.name })),
      ]);
    })
    .catch(() => {
      loading = null;
    });
  return options;
}

const displayNames = new Map<string, Intl.DisplayNames | null>();

/** The tag's name in the UI language (Intl.DisplayNames), or null when the browser has none. */
function localName(tag: string): string | null {
  const ui = i18next.language;
  let names = displayNames.get(ui);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([ui], { type: 'language' });
    } catch {
      names = null;
    }
    displayNames.set(ui, names);
  }
  try {
    const name = names?.of(tag);
    return name && name !== tag ? name : null;
  } catch {
    return null;
  }
}

/** A tag's name: in the UI language when the browser knows it, else the catalogue's (English) name. */
export function languageName(list: LocaleOption[], tag: string): string {
  return localName(tag) ?? list.find((o) => o.tag === tag)?.name ?? tag;
}

/** "German (de)" for a tag, or the tag alone when no name is known. */
export function languageLabel(list: LocaleOption[], tag: string): string {
  const name = languageName(list, tag);
  return name === tag ? tag : `${name} (${tag})`;
}

/** The tag a typed text means: a tag (any case), a language's name (catalogue's or UI language's) or label. */
export function resolveTag(list: LocaleOption[], text: string): string | null {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return null;
  const found =
    list.find((o) => o.tag.toLowerCase() === wanted) ??
    list.find((o) => o.name.toLowerCase() === wanted || localName(o.tag)?.toLowerCase() === wanted) ??
    list.find((o) => languageLabel(list, o.tag).toLowerCase() === wanted);
  return found?.tag ?? null;
}
