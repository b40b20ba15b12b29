/**
 * A keep-alive HTTP client that sends requests exactly as given: raw paths (no `..` or `%2e`
 * normalisation, which fetch's URL parser would apply), repeated headers, arbitrary bytes as body.
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** sent as is, e.g. `/api/v1/groups/%2e%2e?limit=1&limit=2` */
  path: string;
  /** an array value sends the header once per item */
  headers: Record<string, string | string[]>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RawClient {
  send(request: RawRequest): Promise<RawResponse>;
  close(): void;
}

/** A client for `origin` (http://host:port) with at most `sockets` connections, kept alive. */
export function rawClient(origin: string, sockets = 8, timeoutMs = 40_000): RawClient {
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const once = (raw: RawRequest, viaAgent: Agent | false) =>
    new Promise<RawResponse>((resolve, reject) => {
      // Node frames a GET, HEAD, DELETE or OPTIONS body only when told its length; without it the
      // body would reach the server as the start of a next request.
      const headers = raw.body === undefined ? raw.headers : { 'content-length': String(Buffer.byteLength(raw.body)), ...raw.headers };
      const outgoing = request({ host: hostname, port, method: raw.method, path: raw.path, headers, agent: viaAgent, timeout: timeoutMs }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString('utf8') }));
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      outgoing.on('error', reject);
      outgoing.end(raw.body);
    });
  return {
    async send(raw) {
      try {
        return await once(raw, agent);
      } catch (error) {
        // A kept-alive socket the server had just closed (after a 413 or a parser error) resets the
        // next request on it; one retry on a fresh connection tells that apart from a real failure.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ECONNRESET' && code !== 'EPIPE' && !/socket hang up/.test(String(error))) throw error;
        return once(raw, false);
      }
    },
    close: () => agent.destroy(),
  };
}
