/** The document title of a page ("API keys · tolk"), kept in step with the UI language. */
import { watchEffect } from 'vue';
import { i18next } from '../../i18n';

/** Call in a page's setup; App.vue resets the title to the product name on every navigation. */
export function usePageTitle(title: () => string): void {
  watchEffect(() => {
    document.title = `${title()} · ${i18next.t('app.shell.productName')}`;
  });
}
