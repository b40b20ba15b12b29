/** What every export format provides to the export pipeline. */
import type { Writable } from 'node:stream';
import type { ExportSource } from './export-source.js';
import type { SpoolSet } from './spool.js';
import type { ShippedTexts } from '../store/repositories/exports.js';

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

/** Which text of each translation an export ships (CONTRACT "Review"): its latest, or the one its last review approved. */
export const RELEASES = ['latest', 'reviewed'] as const;
export type Release = (typeof RELEASES)[number];
/** Under `release=reviewed`, what a review made against an earlier base term ships: its text, or the base term. */
export const OUTDATED_REVIEWS = ['ship', 'fallback'] as const;
export type OutdatedReviews = (typeof OUTDATED_REVIEWS)[number];

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
  /** `reviewed`: each translation's reviewed text; one without a kept review falls back to the base term as a missing one does */
  readonly release: Release;
  /** `fallback` (only with `release: 'reviewed'`): a review made against an earlier base term falls back too */
  readonly outdated: OutdatedReviews;
}

export const DEFAULT_EXPORT_OPTIONS: ExportOptions = { pretty: false, syntax: 'native', escaping: false, namespaces: false, release: 'latest', outdated: 'ship' };

/** The texts the export's read selects (store/repositories/exports.ts), from what its options ask. */
export function shippedTextsOf({ release, outdated }: Pick<ExportOptions, 'release' | 'outdated'>): ShippedTexts {
  if (release === 'latest') return 'latest';
  return outdated === 'fallback' ? 'reviewed-current' : 'reviewed';
}

/** Writes a prepared export into `out`. */
export type ExportWriter = (out: Writable) => Promise<void>;
