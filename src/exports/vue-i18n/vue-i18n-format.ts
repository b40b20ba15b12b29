/**
 * `/export/vue-i18n`: language → flat object whose keys are the group path and entry name joined
 * with dots, each message in vue-i18n's syntax (printVueI18n) so that t() renders what ICU renders.
 */
import type { ExportFormat } from '../format.js';
import { quote, writeLanguageObject } from '../output.js';
import { storedMessage } from '../../messages/parse-message.js';
import { escapeVueMessage } from '../../messages/vue-i18n/escape-message.js';
import { printVueI18n } from '../../messages/vue-i18n/print-vue-i18n.js';
import { vueKey } from './flat-key.js';

/** Texts without `{ } '` are literal text: only escaped, without parsing. */
const PLAIN = /^[^{}']*$/;

function vueMessage(text: string, language: string): string {
  return PLAIN.test(text) ? escapeVueMessage(text) : printVueI18n(storedMessage(text), language).text;
}

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
          const message = vueMessage(snapshot.textOf(entries[i]!.entry, language), language);
          text += `${i === 0 ? '' : separator}${keys[i]}${pretty ? ': ' : ':'}${quote(message)}`;
        }
        return `${text}${pretty ? '\n  }' : '}'}`;
      });
  },
};
