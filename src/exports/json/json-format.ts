/** `/export/json`: language → group names (nested along the tree) → entry name → text. */
import type { ExportFormat } from '../format.js';
import { writeLanguageObject } from '../output.js';
import { nestedJson } from '../tree.js';

export const jsonFormat: ExportFormat = {
  id: 'json',
  contentType: 'application/json; charset=utf-8',
  isArchive: false,
  prepare: async (snapshot) => (out, pretty) =>
    writeLanguageObject(out, snapshot.languages, pretty, (language) =>
      nestedJson(snapshot.outline.roots, (entry) => snapshot.textOf(entry, language), pretty, 1),
    ),
};
