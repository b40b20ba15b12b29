/**
 * Requests Node's HTTP parser refuses before Fastify sees them (malformed request lines, headers
 * over the limit) still get the contract's error body, not Node's or Fastify's default one.
 */
import type { Socket } from 'node:net';
import { SECURITY_HEADERS } from './security-headers.js';

/** Request line plus headers: room for the longest valid query (a 10,000-character search, percent-encoded). */
export const MAX_HEADER_BYTES = 192 * 1024;

/** Fastify's clientErrorHandler: answers 400 ERR_VALIDATION in the contract body and closes the connection. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (socket.destroyed || !socket.writable) return;
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? `the request line and headers exceed ${MAX_HEADER_BYTES / 1024} KiB`
      : 'the request is not valid HTTP';
  const body = JSON.stringify({ statusCode: 400, code: 'ERR_VALIDATION', message });
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n${Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('')}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
