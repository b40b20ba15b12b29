/**
 * `tolk revert --change-set ID [--dry-run] [--skip-conflicts] [--json]` (CONTRACT "History", CLI): a
 * client of a running server, as `tolk history` is. Prints what the revert put back, found unchanged,
 * and every conflict (who changed the object since, and when); exits 1 when conflicts stopped it
 * (onConflict=abort, the default), so a script undoing an import learns that nothing was written.
 */
import type { Command } from 'commander';
import type { Static } from 'typebox';
import type { RevertAnswer } from '../../http/schemas/revert.js';
import { byteCount, DEFAULT_MAX_BYTES, readBounded } from '../bounded-body.js';
import { networkReason } from '../pull/download.js';
import { readConfigFile, resolveServerConnection } from '../pull/options.js';
import { cut } from '../push/report-table.js';
import { jsonLine, printable } from '../terminal-text.js';

type Answer = Static<typeof RevertAnswer>;
type Conflict = Answer['conflicts'][number];

export interface RevertOptions {
  url: string;
  apiKey: string;
  changeSet: string;
  dryRun: boolean;
  skipConflicts: boolean;
  json: boolean;
}

export interface RevertFlags {
  url?: string;
  key?: string;
  changeSet?: string;
  dryRun?: boolean;
  skipConflicts?: boolean;
  json?: boolean;
}

export function resolveRevertOptions(flags: RevertFlags, env: NodeJS.ProcessEnv, cwd: string): RevertOptions {
  if (!flags.changeSet) throw new Error('missing --change-set <id> (tolk history lists them; tolk push prints its own)');
  return {
    ...resolveServerConnection(flags, env, readConfigFile(cwd)),
    changeSet: flags.changeSet,
    dryRun: flags.dryRun ?? false,
    skipConflicts: flags.skipConflicts ?? false,
    json: flags.json ?? false,
  };
}

/** What the command prints, and whether it succeeded (false: a 409 stopped the revert, nothing written). */
export interface RevertOutcome {
  text: string;
  ok: boolean;
}

const figure = (n: number) => n.toLocaleString('en');
const fields = (value: unknown) => (value === null || value === undefined ? 'absent' : 'text' in (value as object) ? JSON.stringify((value as { text: string }).text) : JSON.stringify(value));
const where = (conflict: { key: string | null; language: string | null }) => (conflict.language ? `${conflict.key ?? ''}/${conflict.language}` : (conflict.key ?? 'the project'));
const byWhom = (conflict: Conflict) =>
  conflict.changedBy ? ` by ${`${conflict.changedBy.firstName} ${conflict.changedBy.lastName}`.trim() || conflict.changedBy.id}${conflict.changedAt ? ` at ${conflict.changedAt}` : ''}` : '';

/** The answer as a person reads it. */
export function revertReport(setId: string, answer: Answer): string {
  const lines: string[] = [];
  if (answer.dryRun) lines.push(`Dry run of reverting change set ${printable(setId)}: nothing written`);
  else if (answer.changeSet) lines.push(`Reverted change set ${printable(setId)} as change set ${printable(answer.changeSet.id)} (version ${answer.changeSet.version})`);
  else lines.push(`Nothing to revert in change set ${printable(setId)}: nothing written`);
  lines.push(`${answer.dryRun ? 'Would restore' : 'Restored'}: ${figure(answer.restored)} · Unchanged: ${figure(answer.unchanged)} · Conflicts: ${figure(answer.totals.conflicts)}`);
  if (answer.created.length > 0) {
    lines.push('', answer.dryRun ? 'Would come back under new ids' : 'Back under new ids');
    for (const created of answer.created) lines.push(`  ${created.target} ${cut(printable(created.key))}${created.id ? ` → ${printable(created.id)}` : ''}`);
  }
  if (answer.conflicts.length > 0) {
    lines.push('', `Conflicts, left as they are (${figure(answer.totals.conflicts)}${answer.totals.conflicts > answer.conflicts.length ? `; the first ${figure(answer.conflicts.length)} listed` : ''})`);
    for (const conflict of answer.conflicts) {
      lines.push(`  ${cut(printable(where(conflict)))}: the change wrote ${cut(printable(fields(conflict.expected)), 60)}, now ${cut(printable(fields(conflict.current)), 60)}${printable(byWhom(conflict))}`);
    }
  }
  if (!answer.dryRun && answer.changeSet) lines.push('', `Redo with: tolk revert --change-set ${printable(answer.changeSet.id)}`);
  return lines.join('\n');
}

export async function revert(options: RevertOptions): Promise<RevertOutcome> {
  const target = new URL(`${options.url}/api/v1/change-sets/${encodeURIComponent(options.changeSet)}/revert`);
  if (options.dryRun) target.searchParams.set('dryRun', 'true');
  if (options.skipConflicts) target.searchParams.set('onConflict', 'skip');
  let response: Response;
  try {
    response = await fetch(target, { method: 'POST', headers: { authorization: `Bearer ${options.apiKey}` } });
  } catch (error) {
    throw new Error(networkReason(error, options.url));
  }
  const tooLarge = () => new Error(`the server's answer is larger than ${byteCount(DEFAULT_MAX_BYTES)} bytes`);
  const text = (await readBounded(response, DEFAULT_MAX_BYTES, tooLarge)).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.status === 409 && body && typeof body === 'object') {
    const error = body as { message?: string; details?: { path: string; message: string }[] };
    if (options.json) return { text: jsonLine(body), ok: false };
    const lines = [`Not reverted: ${printable(String(error.message ?? 'conflicts'))}`];
    for (const detail of error.details ?? []) lines.push(`  ${cut(printable(detail.path))}: ${printable(detail.message)}`);
    lines.push('', `See them all with: tolk revert --change-set ${printable(options.changeSet)} --dry-run; revert the rest with --skip-conflicts`);
    return { text: lines.join('\n'), ok: false };
  }
  if (!response.ok) {
    const error = body as { code?: unknown; message?: unknown } | undefined;
    throw new Error(error && typeof error.message === 'string' ? printable(`${String(error.code)}: ${error.message}`) : `the server answered ${response.status}`);
  }
  const answer = body as Answer | undefined;
  if (!answer || typeof answer.restored !== 'number' || !Array.isArray(answer.conflicts)) throw new Error("the server's answer is not a revert's");
  return { text: options.json ? jsonLine(answer) : revertReport(options.changeSet, answer), ok: true };
}

/** Adds `revert` to the program. */
export function registerRevertCommand(program: Command): void {
  program
    .command('revert')
    .description('undo a change set (an import, a delete, a revert…), never over a later edit (flags > env TOLK_URL/TOLK_API_KEY > ./tolk.json)')
    .option('--url <url>', 'the tolk server, e.g. https://tolk.example.com (env TOLK_URL)')
    .option('--key <key>', 'an API key (env TOLK_API_KEY)')
    .option('--change-set <id>', 'the change set to undo (tolk history lists them; tolk push prints its own)')
    .option('--dry-run', 'say what would be restored, unchanged and in conflict; write nothing')
    .option('--skip-conflicts', 'revert the rest and list the conflicts (default: any conflict stops it, nothing written)')
    .option('--json', "print the server's answer as JSON")
    .action(async (flags: RevertFlags) => {
      const outcome = await revert(resolveRevertOptions(flags, process.env, process.cwd()));
      process.stdout.write(`${outcome.text}\n`);
      if (!outcome.ok) process.exitCode = 1;
    });
}
