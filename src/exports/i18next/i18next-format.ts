/**
 * `/export/i18next`: a .tar.gz with `<lang>/translation.json` per language, nested like the JSON
 * export, so that i18next's fs and http backends load it with their defaults
 * (`/locales/{{lng}}/{{ns}}.json`, namespace `translation`). Each message is written in i18next's own
 * syntax (a plural on `count` as `key_<category>` keys), or unchanged with `?syntax=icu` (i18next-icu).
 */
import { printI18next } from '../../messages/i18next/print-i18next.js';
import { storedMessage } from '../../messages/parse-message.js';
import { archiveWriter } from '../archive.js';
import type { ExportFormat } from '../format.js';
import { nestedJson, type EntryValue } from '../tree.js';

/** Texts without `{ } '` are the same in both syntaxes: written without parsing. */
const PLAIN = /^[^{}']*$/;

function i18nextValue(text: string, language: string): EntryValue {
  if (PLAIN.test(text)) return text;
  const { forms } = printI18next(storedMessage(text), language);
  return forms.length === 1 && forms[0]![0] === '' ? forms[0]![1] : forms;
}

export const i18nextFormat: ExportFormat = {
  id: 'i18next',
  contentType: 'application/gzip',
  isArchive: true,
  prepare: async (snapshot, options) => async (out, pretty) => {
    const archive = archiveWriter(out, new Date(snapshot.project.updatedAt));
    for (const language of snapshot.languages) {
      const valueOf = options.syntax === 'icu'
        ? (entry: Parameters<typeof snapshot.textOf>[0]) => snapshot.textOf(entry, language)
        : (entry: Parameters<typeof snapshot.textOf>[0]) => i18nextValue(snapshot.textOf(entry, language), language);
      await archive.add(`${language}/translation.json`, nestedJson(snapshot.outline.roots, valueOf, pretty));
    }
    await archive.finish();
  },
};
