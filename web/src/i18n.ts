/**
 * tolk localizes itself: the UI's texts live in locales/*.json, each exactly what tolk's vue-i18n export
 * produces (`{"<lang>": {"group.entry": "text"}}`, flat dotted keys), so they can be pushed into a tolk
 * project, translated there, and pulled back (`tolk pull --format vue-i18n`). The files are merged here.
 */
import { createI18n } from 'vue-i18n';
import app from './locales/app.json';
import editor from './locales/editor.json';

type Messages = Record<string, Record<string, string>>;

export const UI_LANGUAGES = ['en', 'de'] as const;

function merge(...files: Messages[]): Messages {
  const merged: Messages = {};
  for (const file of files) {
    for (const [language, texts] of Object.entries(file)) merged[language] = { ...merged[language], ...texts };
  }
  return merged;
}

export const i18n = createI18n({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages: merge(app, editor),
});

/** The UI language for a profile locale: its language if the UI has it, else English. */
export function useUiLocale(locale: string): void {
  const language = locale.split('-')[0] ?? 'en';
  const chosen = (UI_LANGUAGES as readonly string[]).includes(language) ? language : 'en';
  i18n.global.locale.value = chosen as (typeof UI_LANGUAGES)[number];
  document.documentElement.lang = chosen;
}
