/**
 * `/export/vue-i18n`: language → flat object whose keys are the group path and entry name joined
 * with dots, each text escaped so that vue-i18n's message compiler renders it as stored.
 */
import type { ExportFormat } from '../format.js';
import { quote, writeLanguageObject } from '../output.js';
import { escapeVueMessage } from './escape-message.js';
import { vueKey } from './flat-key.js';

export const vueI18nFormat: ExportFormat = {
  id: 'vue-i18n',
  contentType: 'application/json; charset=utf-8',
  isArchive: false,
  prepare: async (snapshot) => {
    const entries = snapshot.outline.entries;
    // Keys are the same in every language: quote them once.
    const keys = entries.map((item) => quote(vueKey(item.path)));
    return (out, pretty) =>
      writeLanguageObject(out, snapshot.languages, pretty, (language) => {
        // The flat object's JSON text, as JSON.stringify(object, null, 2) nested one level deep would write it.
        if (entries.length === 0) return '{}';
        const separator = pretty ? ',\n    ' : ',';
        let text = pretty ? '{\n    ' : '{';
        for (let i = 0; i < entries.length; i += 1) {
          const message = escapeVueMessage(snapshot.textOf(entries[i]!.entry, language));
          text += `${i === 0 ? '' : separator}${keys[i]}${pretty ? ': ' : ':'}${quote(message)}`;
        }
        return `${text}${pretty ? '\n  }' : '}'}`;
      });
  },
};
