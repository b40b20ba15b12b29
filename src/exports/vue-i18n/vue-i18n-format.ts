/**
 * `/export/vue-i18n`: language → flat object whose keys are the group path and entry name joined
 * with dots, each message in vue-i18n's syntax (printVueI18n) so that t() renders what ICU renders.
 */
import type { ExportFormat } from '../format.js';
import { copyDocument, type DocumentRange } from '../language-documents.js';
import { NestedJsonWriter } from '../nested-json.js';
import { writeLanguageObject } from '../output.js';
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
  async prepare(source, { pretty }, spools) {
    // One flat object per language, nested one level deep in the output.
    const documents = source.languages.map((language) => {
      const spool = spools.spool();
      const json = new NestedJsonWriter((text) => spool.write(text), pretty, 1);
      json.open();
      return { language, spool, json };
    });
    await source.walk({
      open: () => {},
      close: () => {},
      entry(entry, path) {
        const key = vueKey(path);
        for (const { language, json } of documents) json.text(key, vueMessage(source.textOf(entry, language), language));
      },
      async settle() {
        for (const { spool } of documents) await spool.settle();
      },
    });
    const ranges: DocumentRange[] = [];
    for (const { spool, json } of documents) {
      json.close();
      ranges.push({ spool, start: 0, end: await spool.size() });
    }
    return (out) => writeLanguageObject(out, source.languages, pretty, (index) => copyDocument(out, ranges[index]!));
  },
};
