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
  /**
   * Checks the snapshot and returns the writer of the whole export. Throwing (an AppError) here
   * refuses the export before a byte is sent, e.g. on Flutter key collisions.
   */
  prepare(snapshot: ProjectSnapshot, options: ExportOptions): Promise<ExportWriter>;
}

/** What the caller asked of an export besides its format; each changes the bytes, so each is in the ETag. */
export interface ExportOptions {
  /** indent JSON (also inside archives) */
  readonly pretty: boolean;
  /** i18next: `icu` writes the stored ICU messages unchanged (for i18next-icu) instead of i18next's own syntax */
  readonly syntax: 'native' | 'icu';
  /** flutter: gen-l10n's `use-escaping: true` syntax, which can say literal braces */
  readonly escaping: boolean;
  /** i18next: each top-level group as a namespace file `<lang>/<group>.json` instead of `<lang>/translation.json` */
  readonly namespaces: boolean;
}

export const DEFAULT_EXPORT_OPTIONS: ExportOptions = { pretty: false, syntax: 'native', escaping: false, namespaces: false };

/** Writes an export into `out`; `pretty` indents JSON (also inside archives). */
export type ExportWriter = (out: Writable, pretty: boolean) => Promise<void>;
