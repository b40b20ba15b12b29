/** Start-up: read the session first, so that the first page drawn is the right one. */
import I18NextVue from 'i18next-vue';
import { createApp } from 'vue';
import App from './App.vue';
import { i18next } from './i18n';
import { router } from './router';
import { loadSession } from './session';
import './styles.css';

await loadSession();
createApp(App).use(I18NextVue, { i18next }).use(router).mount('#app');
