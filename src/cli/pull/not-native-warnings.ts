/**
 * After a pull, the messages its format cannot say natively (the server's `not-native:<format>` checks):
 * their export holds the `other` branch, which a developer should know about. Warnings only: a pull
 * that downloaded its files succeeded, and a failure to read the checks does not undo that.
 */
import { readBounded } from '../bounded-body.js';
import type { PullOptions } from './options.js';

interface CheckPage {
  total: number;
  result: Array<{ key: string; language: string; message: string }>;
}

const PAGE = 100;
/** Enough for any project a person reads warnings about; past it, the count is said instead. */
const MAX_PAGES = 50;

/** The warning lines of `options.format` (none for json, whose messages are stored ICU). */
export async function notNativeWarnings(options: Pick<PullOptions, 'url' | 'apiKey' | 'project' | 'format' | 'maxBytes'>): Promise<string[]> {
  if (options.format === 'json') return [];
  const lines: string[] = [];
  try {
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const target = new URL(`${options.url}/api/v1/projects/${encodeURIComponent(options.project)}/checks`);
      target.searchParams.set('check', `not-native:${options.format}`);
      target.searchParams.set('limit', String(PAGE));
      target.searchParams.set('offset', String(page * PAGE));
      const response = await fetch(target, { headers: { authorization: `Bearer ${options.apiKey}` } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const text = await readBounded(response, options.maxBytes, () => new Error('a page of checks is larger than --max-bytes'));
      const body = JSON.parse(text.toString('utf8')) as CheckPage;
      for (const item of body.result) lines.push(`warning: ${item.key} (${item.language}): ${item.message}`);
      if ((page + 1) * PAGE >= body.total) return lines;
      if (page + 1 === MAX_PAGES) lines.push(`warning: … and ${body.total - lines.length} more (GET /projects/${options.project}/checks?check=not-native:${options.format})`);
    }
  } catch (error) {
    lines.push(`warning: the checks of the export could not be read (${(error as Error).message})`);
  }
  return lines;
}
