/**
 * `tolk pull`'s settings, merged from three sources: command-line flags win over the environment,
 * the environment over `tolk.json` in the current directory. The key belongs in the environment
 * (`TOLK_API_KEY`), where it stays out of version control; `apiKey` in tolk.json is accepted for
 * machines where that file is private.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FORMAT_IDS, OUTDATED_REVIEWS, RELEASES, type FormatId, type OutdatedReviews, type Release } from '../../exports/format.js';
import { DEFAULT_MAX_BYTES } from '../bounded-body.js';

// The server's list of formats: a new export format must be given a file layout in export-files.ts and file-layout.ts.
export const PULL_FORMATS = FORMAT_IDS;
export type PullFormat = FormatId;

export interface PullOptions {
  url: string;
  apiKey: string;
  project: string;
  format: PullFormat;
  /** absolute */
  out: string;
  pretty: boolean;
  quiet: boolean;
  /** i18next: `<lang>/<group>.json` per top-level group instead of `<lang>/translation.json` */
  namespaces: boolean;
  /** `reviewed`: each translation's reviewed text (`?release=reviewed`); `latest` (or none) asks as before, without the parameter */
  release?: Release;
  /** with `release: 'reviewed'` only: `fallback` ships the base term where the review predates the base term's last edit; none is `ship` */
  outdated?: OutdatedReviews;
  /** the most bytes the download, and an archive's files, may hold */
  maxBytes: number;
}

/** What commander gives: every option undefined unless it was on the command line. */
export interface PullFlags {
  url?: string;
  key?: string;
  project?: string;
  format?: string;
  out?: string;
  pretty?: boolean;
  quiet?: boolean;
  namespaces?: boolean;
  maxBytes?: string;
  release?: string;
  outdated?: string;
}

export type ConfigFile = Partial<Record<'url' | 'apiKey' | 'project' | 'format' | 'out' | 'release' | 'outdated', string>> & { pretty?: boolean };

export const CONFIG_FILE = 'tolk.json';

/** `tolk.json` in `cwd`, checked; {} when there is none. Shared with `tolk push`. */
export function readConfigFile(cwd: string): ConfigFile {
  const path = resolve(cwd, CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${path} must hold a JSON object`);
  const config = parsed as Record<string, unknown>;
  for (const name of ['url', 'apiKey', 'project', 'format', 'out', 'release', 'outdated'] as const) {
    if (config[name] !== undefined && typeof config[name] !== 'string') throw new Error(`"${name}" in ${path} must be a string`);
  }
  if (config.pretty !== undefined && typeof config.pretty !== 'boolean') throw new Error(`"pretty" in ${path} must be true or false`);
  return config as ConfigFile;
}

/** Each required setting, its flag, and where else it may come from (for the "missing" reason). */
const SOURCES = {
  url: '--url (or env TOLK_URL, or "url" in tolk.json)',
  apiKey: '--key (or env TOLK_API_KEY, or "apiKey" in tolk.json)',
  project: '--project (or "project" in tolk.json)',
  format: `--format (${PULL_FORMATS.join('|')}, or "format" in tolk.json)`,
  out: '--out (or "out" in tolk.json)',
} as const;

function required(name: keyof typeof SOURCES, ...candidates: (string | undefined)[]): string {
  const value = candidates.find((candidate) => candidate !== undefined && candidate !== '');
  if (value === undefined) throw new Error(`missing ${SOURCES[name]}`);
  return value;
}

/** The server, key and project (flags > env > tolk.json), as `tolk pull` and `tolk push` both take them. */
export function resolveServerOptions(flags: Pick<PullFlags, 'url' | 'key' | 'project'>, env: NodeJS.ProcessEnv, file: ConfigFile): Pick<PullOptions, 'url' | 'apiKey' | 'project'> {
  return { ...resolveServerConnection(flags, env, file), project: required('project', flags.project, file.project) };
}

/** The server and key alone (a command addressing a change set needs no project). */
export function resolveServerConnection(flags: Pick<PullFlags, 'url' | 'key'>, env: NodeJS.ProcessEnv, file: ConfigFile): Pick<PullOptions, 'url' | 'apiKey'> {
  const url = required('url', flags.url, env.TOLK_URL, file.url).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) throw new Error(`--url must be an http(s) URL of a tolk server, not "${url}"`);
  return { url, apiKey: required('apiKey', flags.key, env.TOLK_API_KEY, file.apiKey) };
}

function maxBytesOf(flag: string | undefined): number {
  if (flag === undefined) return DEFAULT_MAX_BYTES;
  const bytes = Number(flag);
  if (!/^[1-9][0-9]*$/.test(flag) || !Number.isSafeInteger(bytes)) throw new Error(`--max-bytes must be a whole number of bytes ≥ 1, not "${flag}"`);
  return bytes;
}

/** `--release` and `--outdated` (flags > tolk.json), checked as the server checks `release` and `outdated`. */
function releaseOf(flags: PullFlags, file: ConfigFile): Pick<PullOptions, 'release' | 'outdated'> {
  const release = flags.release ?? file.release ?? 'latest';
  if (!(RELEASES as readonly string[]).includes(release)) throw new Error(`--release must be one of ${RELEASES.join(', ')}, not "${release}"`);
  const outdated = flags.outdated ?? file.outdated;
  if (outdated === undefined) return { release: release as Release, outdated: 'ship' };
  if (!(OUTDATED_REVIEWS as readonly string[]).includes(outdated)) throw new Error(`--outdated must be one of ${OUTDATED_REVIEWS.join(', ')}, not "${outdated}"`);
  if (release !== 'reviewed') throw new Error('--outdated is for --release reviewed');
  return { release, outdated: outdated as OutdatedReviews };
}

/** Merges flags, env and tolk.json; throws a one-line reason for a missing or invalid setting. */
export function resolvePullOptions(flags: PullFlags, env: NodeJS.ProcessEnv, cwd: string): PullOptions {
  const file = readConfigFile(cwd);
  const server = resolveServerOptions(flags, env, file);
  const format = required('format', flags.format, file.format);
  if (!(PULL_FORMATS as readonly string[]).includes(format)) throw new Error(`--format must be one of ${PULL_FORMATS.join(', ')}, not "${format}"`);
  if (flags.namespaces && format !== 'i18next') throw new Error('--namespaces is for --format i18next');
  return {
    ...server,
    format: format as PullFormat,
    // Relative to where tolk runs, whichever source named it: tolk.json sits in that directory.
    out: resolve(cwd, required('out', flags.out, file.out)),
    pretty: flags.pretty ?? file.pretty ?? false,
    quiet: flags.quiet ?? false,
    namespaces: flags.namespaces ?? false,
    ...releaseOf(flags, file),
    maxBytes: maxBytesOf(flags.maxBytes),
  };
}
