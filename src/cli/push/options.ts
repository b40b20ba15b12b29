/**
 * `tolk push`'s settings. The server, key and project come as for `tolk pull` (flags > env TOLK_URL /
 * TOLK_API_KEY > tolk.json); what to read is always given on the command line, so that a `tolk.json`
 * written for pull never makes a push read the wrong thing.
 */
import { resolve } from 'node:path';
import { readConfigFile, resolveServerOptions } from '../pull/options.js';

export const PUSH_FORMATS = ['json', 'vue-i18n', 'i18next', 'flutter'] as const;
export type PushFormat = (typeof PUSH_FORMATS)[number];

export interface PushOptions {
  url: string;
  apiKey: string;
  project: string;
  format: PushFormat;
  /** absolute: the file or the app's folder (see pack-files.ts for what is looked for) */
  in: string;
  dryRun: boolean;
  mode: 'keep' | 'overwrite';
  skipInvalid: boolean;
  /** every text imported (and every unchanged one) is written reviewed by the key's user (markReviewed=true); unset: false */
  markReviewed?: boolean;
  /** print the server's report as JSON instead of tables */
  json: boolean;
  /** flutter: the ARB files use gen-l10n's use-escaping syntax */
  escaping: boolean;
}

/** What commander gives: every option undefined unless it was on the command line. */
export interface PushFlags {
  url?: string;
  key?: string;
  project?: string;
  format?: string;
  in?: string;
  dryRun?: boolean;
  mode?: string;
  skipInvalid?: boolean;
  markReviewed?: boolean;
  json?: boolean;
  escaping?: boolean;
}

/** Merges flags, env and tolk.json; throws a one-line reason for a missing or invalid setting. */
export function resolvePushOptions(flags: PushFlags, env: NodeJS.ProcessEnv, cwd: string): PushOptions {
  const server = resolveServerOptions(flags, env, readConfigFile(cwd));
  if (flags.format === undefined) throw new Error(`missing --format (${PUSH_FORMATS.join('|')})`);
  if (!(PUSH_FORMATS as readonly string[]).includes(flags.format)) throw new Error(`--format must be one of ${PUSH_FORMATS.join(', ')}, not "${flags.format}"`);
  if (!flags.in) throw new Error('missing --in (the json file, the vue-i18n directory or file, or the i18next / flutter directory)');
  if (flags.mode !== undefined && flags.mode !== 'keep' && flags.mode !== 'overwrite') throw new Error(`--mode must be keep or overwrite, not "${flags.mode}"`);
  return {
    ...server,
    format: flags.format as PushFormat,
    in: resolve(cwd, flags.in),
    dryRun: flags.dryRun ?? false,
    mode: (flags.mode ?? 'keep') as 'keep' | 'overwrite',
    skipInvalid: flags.skipInvalid ?? false,
    markReviewed: flags.markReviewed ?? false,
    json: flags.json ?? false,
    escaping: flags.escaping ?? false,
  };
}
