/**
 * `/export/i18next`: a .tar.gz with `<lang>/translation.json` per language, nested like the JSON
 * export, so that i18next's fs and http backends load it with their defaults
 * (`/locales/{{lng}}/{{ns}}.json`, namespace `translation`).
 */
import { archiveWriter } from '../archive.js';
import type { ExportFormat } from '../format.js';
import { jsonText } from '../output.js';
import { nestedMessages } from '../tree.js';

export const i18nextFormat: ExportFormat = {
  id: 'i18next',
  contentType: 'application/gzip',
  isArchive: true,
  prepare: async (snapshot) => async (out, pretty) => {
    const archive = archiveWriter(out, new Date(snapshot.project.updatedAt));
    for (const language of snapshot.languages) {
      const messages = nestedMessages(snapshot.roots, await snapshot.content(language));
      await archive.add(`${language}/translation.json`, jsonText(messages, pretty));
    }
    await archive.finish();
  },
};
