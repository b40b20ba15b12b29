/**
 * `/export/i18next`: a .tar.gz with `<lang>/translation.json` per language, nested like the JSON
 * export (or, with `?namespaces=true`, `<lang>/<group>.json` per top-level group), so that i18next's fs and http backends load it with their defaults
 * (`/locales/{{lng}}/{{ns}}.json`, namespace `translation`). Each message is written in i18next's own
 * syntax (a plural on `count` as `key_<category>` keys), or unchanged with `?syntax=icu` (i18next-icu).
 */
import { printI18next } from '../../messages/i18next/print-i18next.js';
import { storedMessage } from '../../messages/parse-message.js';
import { archiveWriter } from '../archive.js';
import type { ExportFormat } from '../format.js';
import { conflict } from '../../errors.js';
import type { EntryTexts } from '../snapshot.js';
import { nestedJson, type EntryValue, type OutlineItem } from '../tree.js';

/** Texts without `{ } '` are the same in both syntaxes: written without parsing. */
const PLAIN = /^[^{}']*$/;

function i18nextValue(text: string, language: string): EntryValue {
  if (PLAIN.test(text)) return text;
  const { forms } = printI18next(storedMessage(text), language);
  return forms.length === 1 && forms[0]![0] === '' ? forms[0]![1] : forms;
}

/** The namespace files of `?namespaces=true`: each top-level group's content; top-level keys have no namespace (409). */
function namespacesOf(roots: readonly OutlineItem[]): { name: string; items: readonly OutlineItem[] }[] {
  const loose = roots.filter((item) => item.kind === 'entry').map((item) => `"${item.name}"`);
  if (loose.length > 0) {
    throw conflict(`${loose.length} top-level key(s) (${loose.slice(0, 10).join(', ')}) belong to no namespace: with namespaces=true every text must be in a top-level group`);
  }
  return roots.flatMap((item) => (item.kind === 'group' ? [{ name: item.name, items: item.items }] : []));
}

export const i18nextFormat: ExportFormat = {
  id: 'i18next',
  contentType: 'application/gzip',
  isArchive: true,
  prepare: async (snapshot, options) => {
    const files = options.namespaces ? namespacesOf(snapshot.outline.roots) : [{ name: 'translation', items: snapshot.outline.roots }];
    return async (out, pretty) => {
      const archive = archiveWriter(out, new Date(snapshot.project.updatedAt));
      for (const language of snapshot.languages) {
        const valueOf = options.syntax === 'icu'
          ? (entry: EntryTexts) => snapshot.textOf(entry, language)
          : (entry: EntryTexts) => i18nextValue(snapshot.textOf(entry, language), language);
        for (const file of files) await archive.add(`${language}/${file.name}.json`, nestedJson(file.items, valueOf, pretty));
      }
      await archive.finish();
    };
  },
};
