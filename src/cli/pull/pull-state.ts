/**
 * What the last pull into a directory fetched, kept in `<out>/.tolk-pull.json` beside the files it
 * describes, so that moving or deleting the directory takes its state along. Its ETag is sent back
 * only for the same server, project, format, pretty setting and release (each release's ETag is its
 * own anyway; a state written before releases existed was `latest`'s), and only while the files it
 * wrote are all still there: a 304 must never stand for files that are missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PullOptions } from './options.js';
import { writeFilesAtomically } from './write-files.js';

export const STATE_FILE = '.tolk-pull.json';

export interface PullState {
  etag: string;
  format: string;
  pretty: boolean;
  project: string;
  url: string;
  /** `latest`, `reviewed` or `reviewed-fallback` (releaseOf) */
  release: string;
  files: string[];
}

/** The release a pull asked for, as one word of its state. */
const releaseOf = ({ release = 'latest', outdated }: Pick<PullOptions, 'release' | 'outdated'>) => (release === 'reviewed' && outdated === 'fallback' ? 'reviewed-fallback' : release);

function readState(out: string): Partial<PullState> | undefined {
  try {
    return JSON.parse(readFileSync(join(out, STATE_FILE), 'utf8')) as Partial<PullState>;
  } catch {
    return undefined; // none yet, or unreadable: a full download is always correct
  }
}

/** The ETag to send as If-None-Match, when the last pull into `out` fetched exactly this. */
export function reusableEtag(options: PullOptions): string | undefined {
  const state = readState(options.out);
  if (!state || typeof state.etag !== 'string' || !Array.isArray(state.files)) return undefined;
  const same =
    state.url === options.url &&
    state.project === options.project &&
    state.format === options.format &&
    state.pretty === options.pretty &&
    (state.release ?? 'latest') === releaseOf(options);
  if (!same) return undefined;
  if (!state.files.every((name) => typeof name === 'string' && existsSync(join(options.out, name)))) return undefined;
  return state.etag;
}

/** Records this pull (or forgets the last one, when the server sent no ETag). */
export async function saveState(options: PullOptions, etag: string | null, files: string[]): Promise<void> {
  const state: PullState | Record<string, never> = etag
    ? { etag, format: options.format, pretty: options.pretty, project: options.project, url: options.url, release: releaseOf(options), files }
    : {};
  await writeFilesAtomically(options.out, [{ name: STATE_FILE, content: Buffer.from(`${JSON.stringify(state, null, 2)}\n`) }]);
}
