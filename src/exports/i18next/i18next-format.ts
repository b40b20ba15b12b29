/**
 * `/export/i18next`: a .tar.gz with `<lang>/translation.json` per language, nested like the JSON
 * export (or, with `?namespaces=true`, `<lang>/<group>.json` per top-level group; a group named
 * `components/dialog`, as the import names a namespace in sub-folders, is `<lang>/components/dialog.json`), so that i18next's
 * fs and http backends load it with their defaults (`/locales/{{lng}}/{{ns}}.json`, namespace
 * `translation`). Each message is written in i18next's own syntax (a plural on `count` as
 * `key_<category>` keys), or unchanged with `?syntax=icu` (i18next-icu).
 */
import { printI18next } from '../../messages/i18next/print-i18next.js';
import { storedMessage } from '../../messages/parse-message.js';
import { archiveWriter, type ArchiveFile } from '../archive.js';
import { keptPrinting } from '../kept-printing.js';
import type { ExportFormat } from '../format.js';
import { conflict } from '../../errors.js';
import type { EntryTexts } from '../export-source.js';
import { copyDocument, LanguageDocuments, type DocumentRange, type EntryValue } from '../language-documents.js';

/** Texts without `{ } '` are the same in both syntaxes: written without parsing. */
const PLAIN = /^[^{}']*$/;

const printed = keptPrinting((text, language): EntryValue => {
  const { forms } = printI18next(storedMessage(text), language);
  return forms.length === 1 && forms[0]![0] === '' ? forms[0]![1] : forms;
});

const i18nextValue = (text: string, language: string): EntryValue => (PLAIN.test(text) ? text : printed(text, language));

/** With `?namespaces=true` every text must be in a top-level group: top-level keys have no namespace (409). */
function requireNamespaces(topLevelEntries: readonly string[]): void {
  if (topLevelEntries.length === 0) return;
  const listed = topLevelEntries.slice(0, 10).map((name) => `"${name}"`);
  throw conflict(`${topLevelEntries.length} top-level key(s) (${listed.join(', ')}) belong to no namespace: with namespaces=true every text must be in a top-level group`);
}

export const i18nextFormat: ExportFormat = {
  id: 'i18next',
  contentType: 'application/gzip',
  isArchive: true,
  async prepare(source, { pretty, syntax, namespaces }, spools) {
    if (namespaces) requireNamespaces(source.outline.topLevelEntries);
    const valueOf = syntax === 'icu'
      ? (entry: EntryTexts, language: string) => source.textOf(entry, language)
      : (entry: EntryTexts, language: string) => i18nextValue(source.textOf(entry, language), language);
    const documents = new LanguageDocuments(source.languages, spools, pretty, 0, valueOf, { splitTopLevel: namespaces });
    await source.walk(documents);
    const whole = await documents.finish();
    // The files in archive order: by language, then (with namespaces) by top-level group.
    const named: { name: string; range: DocumentRange }[] = source.languages.flatMap((language, index) =>
      namespaces
        ? documents.namespaces().map(({ name, ranges }) => ({ name: `${language}/${name}.json`, range: ranges[index]! }))
        : [{ name: `${language}/translation.json`, range: whole[index]! }],
    );
    const files: ArchiveFile[] = named.map(({ name, range }) => ({ name, size: range.end - range.start, write: (file) => copyDocument(file, range) }));
    return archiveWriter(new Date(source.project.updatedAt), files);
  },
};
