/** `/export/json`: language → group names (nested along the tree) → entry name → text. */
import type { ExportFormat } from '../format.js';
import { LanguageDocuments, languageObjectWriter } from '../language-documents.js';

export const jsonFormat: ExportFormat = {
  id: 'json',
  contentType: 'application/json; charset=utf-8',
  isArchive: false,
  async prepare(source, { pretty }, spools) {
    const documents = new LanguageDocuments(source.languages, spools, pretty, 1, (entry, language) => source.textOf(entry, language));
    await source.walk(documents);
    const ranges = await documents.finish();
    return languageObjectWriter(source.languages, pretty, ranges);
  },
};
