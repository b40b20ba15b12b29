/** A small API client for the race and crash tests (fetch keeps connections alive), and export checks. */
import { untar } from '../helpers/consumers.js';
import { errorBodyViolations } from './error-contract.js';

export interface Answer {
  status: number;
  headers: Headers;
  /** the raw bytes (exports are archives) */
  bytes: Buffer;
  text: string;
  body: any;
}

/** Calls `<baseUrl><path>` (baseUrl ends in /api/v1) with the key; never throws on an HTTP status. */
export async function call(baseUrl: string, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, bytes, text, body: parsed };
}

/** What is wrong with an answer as far as every route is concerned: a 5xx, or an error body off the contract. */
export function answerProblems(what: string, answer: Answer): string[] {
  if (answer.status >= 500) return [`${what}: ${answer.status} ${answer.text.slice(0, 200)}`];
  if (answer.status >= 400) return errorBodyViolations(answer.status, answer.text).map((problem) => `${what}: ${problem}`);
  return [];
}

export const EXPORT_FORMATS = ['json', 'vue-i18n', 'i18next', 'flutter'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Problems with an export's bytes: JSON that does not parse, an archive that does not unpack or holds a file that does not parse. */
export async function exportProblems(format: ExportFormat, bytes: Buffer): Promise<string[]> {
  try {
    if (format === 'json' || format === 'vue-i18n') {
      JSON.parse(bytes.toString('utf8'));
      return [];
    }
    const files = await untar(bytes);
    if (files.size === 0) return [`${format}: the archive is empty`];
    const broken = [...files.entries()].filter(([, content]) => {
      try {
        JSON.parse(content);
        return false;
      } catch {
        return true;
      }
    });
    return broken.map(([name]) => `${format}: ${name} does not parse`);
  } catch (error) {
    return [`${format}: ${String(error)} (${bytes.length} bytes)`];
  }
}
