/** `/export/json`: language → group names (nested along the tree) → entry name → text. */
import type { ExportFormat } from '../format.js';
import { copyDocument, LanguageDocuments } from '../language-documents.js';
import { writeLanguageObject } from '../output.js';

export const jsonFormat: ExportFormat = {
  id: 'json',
  contentType: 'application/json; charset=utf-8',
  isArchive: false,
  async prepare(source, { pretty }, spools) {
    const documents = new LanguageDocuments(source.languages, spools, pretty, 1, (entry, language) => source.textOf(entry, language));
    await source.walk(documents);
    const ranges = await documents.finish();
    return (out) => writeLanguageObject(out, source.languages, pretty, (index) => copyDocument(out, ranges[index]!));
  },
};
