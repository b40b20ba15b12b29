/** What every export format provides to the export pipeline. */
import type { Writable } from 'node:stream';
import type { ExportSource } from './export-source.js';
import type { SpoolSet } from './spool.js';

export const FORMAT_IDS = ['json', 'vue-i18n', 'i18next', 'flutter'] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export interface ExportFormat {
  id: FormatId;
  contentType: string;
  /** archives are downloads: they get a Content-Disposition file name */
  isArchive: boolean;
  /**
   * Walks the source (inside its read transaction) into spools of `spools`, checking as it goes, and
   * returns the writer of the whole export. Throwing (an AppError) here refuses the export before a
   * byte is sent, e.g. on Flutter key collisions.
   */
  prepare(source: ExportSource, options: ExportOptions, spools: SpoolSet): Promise<ExportWriter>;
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

/** Writes a prepared export into `out`. */
export type ExportWriter = (out: Writable) => Promise<void>;
