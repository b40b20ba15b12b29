/**
 * Fetches one export from a tolk server, whole, into memory: nothing is written until it has all
 * arrived. At most `maxBytes` of it: past that the download is dropped and refused.
 */
import { byteCount, readBounded, readErrorText } from '../bounded-body.js';
import type { OutdatedReviews, Release } from '../../exports/format.js';
import type { PullFormat } from './options.js';

export type Download = { changed: false } | { changed: true; etag: string | null; body: Buffer };

export interface DownloadRequest {
  url: string;
  apiKey: string;
  project: string;
  format: PullFormat;
  pretty: boolean;
  /** i18next: one file per top-level group (`?namespaces=true`) */
  namespaces?: boolean;
  /** `reviewed`: `?release=reviewed` (`latest` is the server's default, and asked without the parameter) */
  release?: Release;
  /** sent (`?outdated=`) only with `release: 'reviewed'`, where it means something; `ship` is the default */
  outdated?: OutdatedReviews;
  /** sent as If-None-Match */
  etag?: string;
  /** the most bytes the body may have (`--max-bytes`) */
  maxBytes: number;
  /** called with the bytes received so far */
  onProgress?: (received: number) => void;
}

/** The server's contract error (`{code, message}`) as one line, or the status when the body is not one. */
export async function httpErrorReason(response: Response): Promise<string> {
  const text = await readErrorText(response);
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.code === 'string') return `${body.code}: ${String(body.message ?? '')}`.trim();
  } catch {
    // not the contract's error body (a proxy's page, say): fall through to the status line
  }
  return `HTTP ${response.status} ${response.statusText}`.trim();
}

/** fetch's own message is only "fetch failed"; the cause says what went wrong (ECONNREFUSED, ENOTFOUND…). */
export function networkReason(error: unknown, url: string): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `cannot reach ${url}: ${detail}`;
}

const tooLarge = (maxBytes: number) => () => new Error(`refused the download: it is larger than ${byteCount(maxBytes)} bytes (--max-bytes)`);

/** GETs `{url}/api/v1/projects/{project}/export/{format}`; throws a one-line reason on any failure. */
export async function downloadExport(request: DownloadRequest): Promise<Download> {
  const target = new URL(`${request.url}/api/v1/projects/${encodeURIComponent(request.project)}/export/${request.format}`);
  if (request.pretty) target.searchParams.set('format', 'true');
  if (request.namespaces) target.searchParams.set('namespaces', 'true');
  if (request.release === 'reviewed') {
    target.searchParams.set('release', 'reviewed');
    if (request.outdated === 'fallback') target.searchParams.set('outdated', 'fallback');
  }
  const headers: Record<string, string> = { authorization: `Bearer ${request.apiKey}` };
  if (request.etag) headers['if-none-match'] = request.etag;
  let response: Response;
  let body: Buffer;
  try {
    response = await fetch(target, { headers });
    if (response.status === 304) return { changed: false };
    if (!response.ok) throw new Error(await httpErrorReason(response));
    body = await readBounded(response, request.maxBytes, tooLarge(request.maxBytes), request.onProgress);
  } catch (error) {
    if (error instanceof TypeError) throw new Error(networkReason(error, request.url));
    throw error;
  }
  return { changed: true, etag: response.headers.get('etag'), body };
}
