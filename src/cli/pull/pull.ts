/**
 * `tolk pull`: a client of a running tolk server (not of the store, unlike the other commands) that
 * downloads one export and writes it where the framework reads it. Nothing is written unless the
 * whole download arrived within --max-bytes and every file is one of the format's own (file-layout.ts);
 * what it prints of the server's text goes through terminal-text.ts.
 */
import type { Command } from 'commander';
import { byteCount, DEFAULT_MAX_BYTES } from '../bounded-body.js';
import { jsonLine, printable } from '../terminal-text.js';
import { downloadExport } from './download.js';
import { notNativeWarnings } from './not-native-warnings.js';
import { exportFiles } from './export-files.js';
import { PULL_FORMATS, resolvePullOptions, type PullFlags, type PullOptions } from './options.js';
import { reusableEtag, saveState } from './pull-state.js';
import { writeFilesAtomically } from './write-files.js';

export interface PullResult {
  changed: boolean;
  format: string;
  project: string;
  out: string;
  etag: string | null;
  files: string[];
  bytes: number;
}

/** A progress line on stderr for people at a terminal; silent for scripts, CI and --quiet. */
function progressReporter(options: PullOptions): { update?: (received: number) => void; done: () => void } {
  if (options.quiet || !process.stderr.isTTY || process.env.CI) return { done: () => {} };
  let shown = false;
  return {
    update: (received) => {
      shown = true;
      process.stderr.write(`\rtolk pull: ${received} bytes`);
    },
    done: () => shown && process.stderr.write('\n'),
  };
}

/** Runs one pull with resolved options. */
export async function pull(options: PullOptions): Promise<PullResult> {
  const etag = reusableEtag(options);
  const progress = progressReporter(options);
  const download = await downloadExport({ ...options, etag, onProgress: progress.update }).finally(progress.done);
  const summary = { format: options.format, project: options.project, out: options.out };
  if (!download.changed) return { changed: false, ...summary, etag: etag ?? null, files: [], bytes: 0 };
  const files = await exportFiles(download.body, options);
  const written = await writeFilesAtomically(options.out, files);
  await saveState(options, download.etag, written);
  const bytes = files.reduce((sum, file) => sum + file.content.length, 0);
  return { changed: true, ...summary, etag: download.etag, files: written, bytes };
}

/** Adds `pull` to the program. */
export function registerPullCommand(program: Command): void {
  program
    .command('pull')
    .description('download a project\'s export from a tolk server into a directory (flags > env TOLK_URL/TOLK_API_KEY > ./tolk.json)')
    .option('--url <url>', 'the tolk server, e.g. https://tolk.example.com (env TOLK_URL)')
    .option('--key <key>', 'an API key (env TOLK_API_KEY)')
    .option('--project <id>', 'the project id')
    .option('--format <format>', PULL_FORMATS.join('|'))
    .option('--out <dir>', 'the directory to write into')
    .option('--pretty', 'pretty-printed JSON')
    .option('--no-pretty', 'compact JSON (overrides "pretty" in tolk.json)')
    .option('--quiet', 'no progress line on stderr')
    .option('--release <release>', 'latest (the default): every translation as it is now; reviewed: the text each translation\'s last review approved, the base term where none')
    .option('--outdated <outdated>', 'with --release reviewed: ship (the default) or fallback (the base term where the review predates the base term\'s last change)')
    .option('--namespaces', 'i18next: each top-level group as its own namespace file <lang>/<group>.json (a group components/dialog in a sub-folder)')
    .option('--max-bytes <n>', `refuse a download, or an archive's unpacked files, of more than n bytes (default ${byteCount(DEFAULT_MAX_BYTES)})`)
    .action(async (flags: PullFlags) => {
      const options = resolvePullOptions(flags, process.env, process.cwd());
      const result = await pull(options);
      // Only when the files changed: an unchanged export has the warnings the last pull printed.
      if (result.changed) for (const line of await notNativeWarnings(options)) process.stderr.write(`${printable(line)}\n`);
      process.stdout.write(`${jsonLine(result)}\n`);
    });
}
