/** Start-up: read the session first, so that the first page drawn is the right one. */
import { createApp } from 'vue';
import App from './App.vue';
import { i18n } from './i18n';
import { router } from './router';
import { loadSession } from './session';
import './styles.css';

await loadSession();
createApp(App).use(i18n).use(router).mount('#app');
