/** Start-up: read the session first, so that the first page drawn is the right one. */
import I18NextVue from 'i18next-vue';
import { createApp } from 'vue';
import App from './App.vue';
import { i18next } from './i18n';
import { router } from './router';
import { applySession, loadSession } from './session';
import { onSessionEnded } from './api';
import './styles.css';

await loadSession();
// A session that ends while a page is open (signed out elsewhere, password changed, expired) leads
// back to the sign-in, which returns to the page afterwards.
onSessionEnded(() => {
  applySession({ user: null, csrfToken: null });
  void router.push({ path: '/', query: { next: router.currentRoute.value.fullPath } });
});
createApp(App).use(I18NextVue, { i18next }).use(router).mount('#app');
