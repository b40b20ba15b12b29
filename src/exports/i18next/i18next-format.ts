/**
 * `/export/i18next`: a .tar.gz with `<lang>/translation.json` per language, nested like the JSON
 * export, so that i18next's fs and http backends load it with their defaults
 * (`/locales/{{lng}}/{{ns}}.json`, namespace `translation`).
 */
import { archiveWriter } from '../archive.js';
import type { ExportFormat } from '../format.js';
import { nestedJson } from '../tree.js';

export const i18nextFormat: ExportFormat = {
  id: 'i18next',
  contentType: 'application/gzip',
  isArchive: true,
  prepare: async (snapshot) => async (out, pretty) => {
    const archive = archiveWriter(out, new Date(snapshot.project.updatedAt));
    for (const language of snapshot.languages) {
      const text = nestedJson(snapshot.outline.roots, (entry) => snapshot.textOf(entry, language), pretty);
      await archive.add(`${language}/translation.json`, text);
    }
    await archive.finish();
  },
};
