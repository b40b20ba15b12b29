/** The few REST calls `tolk push` makes, each answering parsed JSON or throwing the server's `code: message`. */
import { httpErrorReason, networkReason } from '../pull/download.js';

export interface ApiClient {
  request<T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, body?: unknown): Promise<T>;
  /** every page of a paginated list */
  list<T>(path: string): Promise<T[]>;
}

/** A client of `{url}/api/v1` with the key. */
export function apiClient(url: string, apiKey: string): ApiClient {
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${url}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      throw new Error(networkReason(error, url));
    }
    if (!response.ok) throw new Error(await httpErrorReason(response));
    const text = await response.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  return {
    request,
    async list<T>(path: string) {
      const items: T[] = [];
      const separator = path.includes('?') ? '&' : '?';
      for (;;) {
        const page = await request<{ total: number; result: T[] }>('GET', `${path}${separator}limit=100&offset=${items.length}`);
        items.push(...page.result);
        if (page.result.length === 0 || items.length >= page.total) return items;
      }
    },
  };
}
