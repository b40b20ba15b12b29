/** What every export format provides to the export pipeline. */
import type { Writable } from 'node:stream';
import type { ProjectSnapshot } from './snapshot.js';

export const FORMAT_IDS = ['json', 'vue-i18n', 'i18next', 'flutter'] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export interface ExportFormat {
  id: FormatId;
  contentType: string;
  /** archives are downloads: they get a Content-Disposition file name */
  isArchive: boolean;
  /** refuses the export (throws an AppError) before a byte is sent, e.g. on Flutter key collisions */
  check?(snapshot: ProjectSnapshot): Promise<void>;
  /** writes the whole export; `pretty` indents JSON (also inside archives) */
  write(snapshot: ProjectSnapshot, out: Writable, pretty: boolean): Promise<void>;
}
