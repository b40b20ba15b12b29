/**
 * tolk localizes itself: the UI's texts live in locales/<lang>/translation.json, exactly what tolk's
 * i18next export produces (nested by group, `{{name}}` interpolation), so they can be pushed into a tolk
 * project, translated there, and pulled back (`tolk pull --format i18next --out web/src/locales`).
 * i18next's format, not vue-i18n's: tolk's vue-i18n export escapes every `{` (stored text is shown as it
 * is), so a UI message with a placeholder could never come out of it, while i18next keeps `{{name}}`.
 */
import i18next from 'i18next';
import { useTranslation } from 'i18next-vue';
import { computed, ref, type WritableComputedRef } from 'vue';
import de from './locales/de/translation.json';
import en from './locales/en/translation.json';

export const UI_LANGUAGES = ['en', 'de'] as const;

await i18next.init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: en }, de: { translation: de } },
  // Vue escapes what it renders; i18next escaping too would show &amp; etc.
  interpolation: { escapeValue: false },
});

export { i18next };

/** The UI language as a Vue ref, kept in step with i18next (for Intl formatting in components). */
const language = ref(i18next.language);
i18next.on('languageChanged', (lng) => {
  language.value = lng;
  document.documentElement.lang = lng;
});

/** What components use: `t(key, values)` (re-renders on a language change) and the UI language. */
export function useI18n(): { t: ReturnType<typeof useTranslation>['t']; locale: WritableComputedRef<string> } {
  const { t } = useTranslation();
  const locale = computed({ get: () => language.value, set: (lng: string) => void i18next.changeLanguage(lng) });
  return { t, locale };
}

/** The UI language for a profile locale: its language if the UI has it, else English. */
export function useUiLocale(locale: string): void {
  const wanted = locale.split('-')[0] ?? 'en';
  void i18next.changeLanguage((UI_LANGUAGES as readonly string[]).includes(wanted) ? wanted : 'en');
}
