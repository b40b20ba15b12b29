/**
 * `tolk push`: one POST /projects/{id}/import with the folder's files (pack-files.ts), so every rule
 * (names, messages, permissions, all or nothing) is the server's. Prints the report as tables (or
 * `--json`) with every file found read or not and why (CONTRACT "Import": nothing is skipped silently),
 * and exits 1 when anything was refused or no file was read.
 */
import type { Command } from 'commander';
import { byteCount, DEFAULT_MAX_BYTES, readBounded } from '../bounded-body.js';
import { accountFiles, pathOfName } from '../../imports/files-account.js';
import type { FileNotRead } from '../../imports/folder-layout.js';
import { networkReason } from '../pull/download.js';
import { jsonLine } from '../terminal-text.js';
import { PUSH_FORMATS, resolvePushOptions, type PushFlags, type PushOptions } from './options.js';
import { NothingToRead, packFiles, type PackedBody } from './pack-files.js';
import { notReadTable, refusalTable, reportTable, type ImportReport } from './report-table.js';

export type PushOutcome =
  | { ok: true; report: ImportReport }
  | { ok: false; status: number; code: string; message: string; details: { path: string; message: string }[] };

/** The body as a stream that reports how much has gone out (fetch has no upload progress of its own). */
function withProgress(body: Buffer, onProgress: (sent: number) => void): ReadableStream<Uint8Array> {
  const CHUNK = 256 * 1024;
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= body.length) {
        controller.close();
        return;
      }
      const chunk = body.subarray(sent, sent + CHUNK);
      sent += chunk.length;
      controller.enqueue(chunk);
      onProgress(sent);
    },
  });
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Sends the packed files; answers the report or the server's refusal. Throws for anything else. */
export async function push(options: PushOptions, packed: PackedBody, onProgress: (sent: number, total: number) => void = () => {}): Promise<PushOutcome> {
  const query = new URLSearchParams({ format: options.format, mode: options.mode });
  // A dry run lists every problem at once, as a report, so it always asks for the rest too.
  if (options.dryRun) query.set('dryRun', 'true');
  if (options.skipInvalid || options.dryRun) query.set('skipInvalid', 'true');
  if (options.escaping) query.set('escaping', 'true');
  if (options.markReviewed) query.set('markReviewed', 'true');
  const url = `${options.url}/api/v1/projects/${encodeURIComponent(options.project)}/import?${query}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': packed.contentType, 'content-length': String(packed.body.length) },
      body: withProgress(packed.body, (sent) => onProgress(sent, packed.body.length)),
      duplex: 'half',
    } as RequestInit);
  } catch (error) {
    throw new Error(networkReason(error, options.url));
  }
  // A report lists at most 1,000 items of each kind: far below this, unless the server is not tolk.
  const tooLarge = () => new Error(`the server's answer is larger than ${byteCount(DEFAULT_MAX_BYTES)} bytes`);
  const text = (await readBounded(response, DEFAULT_MAX_BYTES, tooLarge)).toString('utf8');
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  }
  if (response.ok) return { ok: true, report: body as ImportReport };
  if (typeof body?.code !== 'string') throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  return { ok: false, status: response.status, code: body.code, message: String(body.message ?? ''), details: Array.isArray(body.details) ? body.details : [] };
}

/** Packs the files; when none is read, prints why each file found is not (as a table) before the one-line reason. */
async function packOrSay(options: PushOptions): Promise<PackedBody> {
  try {
    return await packFiles(options.format, options.in);
  } catch (error) {
    if (error instanceof NothingToRead && !options.json && error.notRead.length > 0) process.stdout.write(`${notReadTable(error.notRead).join('\n').trimStart()}\n`);
    throw error;
  }
}

/** The report as `--json` prints it: each file with the path it came from, and the files not read. */
function jsonReport(report: ImportReport, packed: PackedBody, notRead: readonly FileNotRead[]) {
  const files = Array.isArray(report.files) ? report.files.map((file) => ({ ...file, path: pathOfName(packed.layout, file.name) })) : report.files;
  return { ...report, files, notRead };
}

/** Adds `push` to the program. */
export function registerPushCommand(program: Command): void {
  program
    .command('push')
    .description('import an app\'s translation files into a project on a tolk server in one request (flags > env TOLK_URL/TOLK_API_KEY > ./tolk.json)')
    .option('--url <url>', 'the tolk server, e.g. https://tolk.example.com (env TOLK_URL)')
    .option('--key <key>', 'an API key (env TOLK_API_KEY)')
    .option('--project <id>', 'the project id')
    .option('--format <format>', PUSH_FORMATS.join('|'))
    .option('--in <path>', "the app's folder or file: messages.json; <lang>.json files (vue-i18n); <lng>/<ns>.json, namespaces in sub-folders too, also under locales/ or public/locales/ (i18next); *.arb, also l10n.yaml's arb-dir or lib/l10n (flutter). Every other file found is listed with why it is not read")
    .option('--dry-run', 'write nothing; list what would happen, every refused key included')
    .option('--mode <mode>', 'keep (default): differing stored texts stay and are listed as conflicts; overwrite: replace them')
    .option('--skip-invalid', 'import the rest when some keys are refused (default: all or nothing)')
    .option('--mark-reviewed', "write every translation imported, and every unchanged one, as reviewed by the key's user (needs the canReview capability)")
    .option('--escaping', "flutter: the ARB files use gen-l10n's use-escaping: true syntax")
    .option('--json', 'print the report as JSON')
    .action(async (flags: PushFlags) => {
      const options = resolvePushOptions(flags, process.env, process.cwd());
      const packed = await packOrSay(options);
      const showProgress = process.stderr.isTTY === true;
      const outcome = await push(options, packed, (sent, total) => {
        if (showProgress) process.stderr.write(`\rtolk push: uploading ${megabytes(sent)} of ${megabytes(total)}`);
      });
      if (showProgress) process.stderr.write('\n');
      if (!outcome.ok) {
        if (outcome.status !== 400 || outcome.details.length === 0) throw new Error(`${outcome.code}: ${outcome.message}`);
        const { notRead } = packed.layout;
        process.stdout.write(`${options.json ? jsonLine({ ...outcome, notRead }) : [refusalTable(outcome.message, outcome.details), ...notReadTable(notRead)].join('\n')}\n`);
        process.exitCode = 1;
        return;
      }
      const { report } = outcome;
      const account = accountFiles(packed.layout, report);
      process.stdout.write(`${options.json ? jsonLine(jsonReport(report, packed, account.notRead)) : reportTable(report, account)}\n`);
      if (report.totals.refused > 0) process.exitCode = 1;
      // A server older than the list gives no `files`: only a list it gave can say that none was read.
      if (Array.isArray(report.files) && report.files.length === 0) {
        process.stderr.write(`tolk push: the server read none of the ${packed.layout.read.length} file(s) sent (see "Files not read")\n`);
        process.exitCode = 1;
      }
    });
}
