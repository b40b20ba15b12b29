/**
 * The one way the web app talks to the server: the JSON API under /api/v1, with the session cookie
 * and, on every state-changing request, the CSRF token of the session. Errors arrive in the contract's
 * body and are thrown as ApiError, so views show the server's message and branch on its code.
 */
import type { ErrorBody } from './types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Headers,
  ) {
    super(body.message);
  }
  get code(): string {
    return this.body.code;
  }
}

let csrfToken: string | null = null;
let sessionEnded: (() => void) | null = null;

/** Called when a signed-in request is refused with 401: the session ended (signed out elsewhere, expired). */
export function onSessionEnded(handler: () => void): void {
  sessionEnded = handler;
}

/** Set by the session store whenever the server hands out a token (session read, sign-in, sign-up). */
export function useCsrfToken(token: string | null): void {
  csrfToken = token;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** a body sent as it is (a file, an archive), with its own media type */
  rawBody?: { data: Blob | ArrayBuffer | string; contentType: string };
}

/** The response of a successful request: its parsed JSON body (undefined for 204) and its headers. */
export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

/** Calls `/api/v1{path}`; throws ApiError for every non-2xx answer. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const method = options.method ?? 'GET';
  const url = new URL(`/api/v1${path}`, window.location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.rawBody) headers['content-type'] = options.rawBody.contentType;
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(url, {
    method,
    headers,
    body: options.rawBody ? options.rawBody.data : options.body === undefined ? null : JSON.stringify(options.body),
    credentials: 'same-origin',
    signal: options.signal ?? null,
  });
  const text = await response.text();
  const parsed: unknown = text === '' ? undefined : JSON.parse(text);
  if (!response.ok) {
    const body = (parsed ?? { statusCode: response.status, code: 'ERR_INTERNAL', message: response.statusText }) as ErrorBody;
    // A wrong password at sign-in is a 401 too, but no session has ended then.
    if (response.status === 401 && csrfToken !== null && !path.startsWith('/auth/')) sessionEnded?.();
    throw new ApiError(response.status, body, response.headers);
  }
  return { data: parsed as T, headers: response.headers };
}

/** Shorthand for request(): just the body. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await request<T>(path, options)).data;
}
