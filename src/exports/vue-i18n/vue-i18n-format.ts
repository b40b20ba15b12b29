/**
 * `/export/vue-i18n`: language → flat object whose keys are the group path and entry name joined
 * with dots, each message in vue-i18n's syntax (printVueI18n) so that t() renders what ICU renders.
 */
import type { ExportFormat } from '../format.js';
import type { EntryTexts } from '../export-source.js';
import { LanguageDocuments, languageObjectWriter } from '../language-documents.js';
import { keptPrinting } from '../kept-printing.js';
import { storedMessage } from '../../messages/parse-message.js';
import { escapeVueMessage } from '../../messages/vue-i18n/escape-message.js';
import { printVueI18n } from '../../messages/vue-i18n/print-vue-i18n.js';
import { vueKey } from './flat-key.js';

/** Texts without `{ } '` are literal text: only escaped, without parsing. */
const PLAIN = /^[^{}']*$/;

const printed = keptPrinting((text, language) => printVueI18n(storedMessage(text), language).text);

const vueMessage = (text: string, language: string): string => (PLAIN.test(text) ? escapeVueMessage(text) : printed(text, language));

export const vueI18nFormat: ExportFormat = {
  id: 'vue-i18n',
  contentType: 'application/json; charset=utf-8',
  isArchive: false,
  async prepare(source, { pretty }, spools) {
    // One flat object per language, nested one level deep in the output.
    const valueOf = (entry: EntryTexts, language: string) => vueMessage(source.textOf(entry, language), language);
    const documents = new LanguageDocuments(source.languages, spools, pretty, 1, valueOf, { flatKey: vueKey });
    await source.walk(documents);
    const ranges = await documents.finish();
    return languageObjectWriter(source.languages, pretty, ranges);
  },
};
