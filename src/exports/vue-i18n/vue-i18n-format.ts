/**
 * `/export/vue-i18n`: language → flat object whose keys are the group path and entry name joined
 * with dots, each text escaped so that vue-i18n's message compiler renders it as stored.
 */
import type { ExportFormat } from '../format.js';
import { writeLanguageObject } from '../output.js';
import { forEachEntry } from '../tree.js';
import { escapeVueMessage } from './escape-message.js';
import { vueKey } from './flat-key.js';

export const vueI18nFormat: ExportFormat = {
  id: 'vue-i18n',
  contentType: 'application/json; charset=utf-8',
  isArchive: false,
  prepare: async (snapshot) => (out, pretty) =>
    writeLanguageObject(out, snapshot.languages, pretty, async (language) => {
      const messages: Record<string, string> = {};
      forEachEntry(snapshot.roots, await snapshot.content(language), (path, entry) => {
        messages[vueKey(path)] = escapeVueMessage(entry.text);
      });
      return messages;
    }),
};
