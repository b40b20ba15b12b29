/**
 * `tolk history`: a client of a running server, as `pull` and `push` are. Lists the project's change
 * sets (GET /projects/{id}/change-sets) or, with `--entry`, one entry's changes (GET
 * /projects/{id}/changes?entryId=), newest first, as a table or `--json`. It pages through them up to
 * HISTORY_CAP items (each page is a counted request): the newest ones, which is what a person undoing
 * something looks for; the table's heading and the JSON's `total` say when there are more.
 */
import type { Command } from 'commander';
import { byteCount, DEFAULT_MAX_BYTES, readBounded } from '../bounded-body.js';
import { httpErrorReason, networkReason } from '../pull/download.js';
import { readConfigFile, resolveServerOptions } from '../pull/options.js';
import { jsonLine } from '../terminal-text.js';
import { changeSetTable, entryChangeTable, type ChangeItem, type ChangeSetItem, type Listing } from './history-table.js';

/** The most items listed: ten pages of the API's largest. */
export const HISTORY_CAP = 1_000;
const PAGE = 100;

export interface HistoryOptions {
  url: string;
  apiKey: string;
  project: string;
  /** one entry's changes instead of the project's change sets */
  entry?: string | undefined;
  json: boolean;
}

/** What commander gives: every option undefined unless it was on the command line. */
export interface HistoryFlags {
  url?: string;
  key?: string;
  project?: string;
  entry?: string;
  json?: boolean;
}

/** Merges flags, env and tolk.json as `tolk pull` does; throws a one-line reason for a missing setting. */
export function resolveHistoryOptions(flags: HistoryFlags, env: NodeJS.ProcessEnv, cwd: string): HistoryOptions {
  if (flags.entry === '') throw new Error('--entry needs an entry id');
  return { ...resolveServerOptions(flags, env, readConfigFile(cwd)), entry: flags.entry, json: flags.json ?? false };
}

/** One page of a list; throws a one-line reason for an error answer or an unreachable server. */
async function fetchPage<T>(options: HistoryOptions, target: URL): Promise<Listing<T>> {
  let response: Response;
  try {
    response = await fetch(target, { headers: { authorization: `Bearer ${options.apiKey}` } });
  } catch (error) {
    throw new Error(networkReason(error, options.url));
  }
  if (!response.ok) throw new Error(await httpErrorReason(response));
  const tooLarge = () => new Error(`the server's answer is larger than ${byteCount(DEFAULT_MAX_BYTES)} bytes`);
  const text = (await readBounded(response, DEFAULT_MAX_BYTES, tooLarge)).toString('utf8');
  let page: unknown;
  try {
    page = JSON.parse(text);
  } catch {
    page = undefined;
  }
  const listing = page as Listing<T> | undefined;
  if (!listing || !Array.isArray(listing.result) || typeof listing.total !== 'number') throw new Error(`the server's answer to ${target.pathname} is not a page`);
  return listing;
}

/**
 * The newest items of the list, up to HISTORY_CAP, page by page. A write landing meanwhile shifts the
 * pages by one: an item seen twice is kept once.
 */
export async function fetchHistory<T extends { id: string }>(options: HistoryOptions): Promise<Listing<T>> {
  const base = `${options.url}/api/v1/projects/${encodeURIComponent(options.project)}`;
  const items = new Map<string, T>();
  let total = 0;
  for (let offset = 0; offset < HISTORY_CAP; offset += PAGE) {
    const target = new URL(options.entry === undefined ? `${base}/change-sets` : `${base}/changes`);
    if (options.entry !== undefined) target.searchParams.set('entryId', options.entry);
    target.searchParams.set('limit', String(Math.min(PAGE, HISTORY_CAP - offset)));
    target.searchParams.set('offset', String(offset));
    const page = await fetchPage<T>(options, target);
    total = page.total;
    for (const item of page.result) if (!items.has(item.id)) items.set(item.id, item);
    if (page.result.length === 0 || offset + page.result.length >= total) break;
  }
  return { total, result: [...items.values()].slice(0, HISTORY_CAP) };
}

/** What `tolk history` prints: the table, or with `--json` one Page of everything fetched. */
export async function history(options: HistoryOptions): Promise<string> {
  if (options.entry === undefined) {
    const listing = await fetchHistory<ChangeSetItem>(options);
    return options.json ? jsonLine({ limit: HISTORY_CAP, offset: 0, ...listing }) : changeSetTable(options.project, listing);
  }
  const listing = await fetchHistory<ChangeItem>(options);
  return options.json ? jsonLine({ limit: HISTORY_CAP, offset: 0, ...listing }) : entryChangeTable(options.entry, listing);
}

/** Adds `history` to the program. */
export function registerHistoryCommand(program: Command): void {
  program
    .command('history')
    .description("list a project's change sets, or one entry's changes, newest first (flags > env TOLK_URL/TOLK_API_KEY > ./tolk.json)")
    .option('--url <url>', 'the tolk server, e.g. https://tolk.example.com (env TOLK_URL)')
    .option('--key <key>', 'an API key (env TOLK_API_KEY)')
    .option('--project <id>', 'the project id')
    .option('--entry <id>', "list this entry's changes (a deleted entry's too) instead of the project's change sets")
    .option('--json', `print the API's page as JSON: the newest ${HISTORY_CAP.toLocaleString('en')} items, with the total`)
    .action(async (flags: HistoryFlags) => {
      process.stdout.write(`${await history(resolveHistoryOptions(flags, process.env, process.cwd()))}\n`);
    });
}
