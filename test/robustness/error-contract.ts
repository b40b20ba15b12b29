/** The contract's rules for every answer, as a checker that lists what an answer breaks. */
import type { IncomingHttpHeaders } from 'node:http';

/** The closed list of codes (CONTRACT.md and the spec) and the status each one goes with. */
export const CONTRACT_CODES: Readonly<Record<string, number>> = {
  ERR_VALIDATION: 400,
  ERR_HIERARCHY_LIMIT: 400,
  ERR_UNAUTHORIZED: 401,
  ERR_FORBIDDEN: 403,
  ERR_PROJECT_NOT_FOUND: 404,
  ERR_SETTINGS_PROFILE_USER_NOT_FOUND: 404,
  ERR_NOT_FOUND: 404,
  ERR_CONFLICT: 409,
  ERR_EXPORT_KEY_COLLISION: 409,
  ERR_PRECONDITION_FAILED: 412,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  ERR_QUOTA_EXCEEDED: 429,
  ERR_INTERNAL: 500,
};

const ERROR_KEYS = new Set(['statusCode', 'code', 'message', 'details']);

/** Internals that must never reach a client (checked only when the request itself did not contain them). */
const LEAKS = [/\n\s+at .+:\d+:\d+/, /node_modules/, /SqliteError|SQLITE_[A-Z]/, /duplicate key value|violates .* constraint|relation "/, /\bselect\b[^]*\bfrom\b/i];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What an error body breaks of `{statusCode, code, message, details?}` (exactly these keys). */
export function errorBodyViolations(status: number, text: string, requestText = ''): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`the ${status} body is not JSON: ${text.slice(0, 120)}`];
  }
  if (!isPlainObject(body)) return [`the ${status} body is not an object: ${text.slice(0, 120)}`];
  const found: string[] = [];
  const extra = Object.keys(body).filter((key) => !ERROR_KEYS.has(key));
  if (extra.length > 0) found.push(`the error body has keys beyond the contract: ${extra.join(', ')}`);
  if (body.statusCode !== status) found.push(`statusCode ${String(body.statusCode)} differs from the HTTP status ${status}`);
  if (typeof body.code !== 'string' || !(body.code in CONTRACT_CODES)) found.push(`code ${JSON.stringify(body.code)} is not a contract code`);
  else if (CONTRACT_CODES[body.code] !== status) found.push(`code ${body.code} goes with ${CONTRACT_CODES[body.code]}, not ${status}`);
  if (typeof body.message !== 'string' || body.message === '') found.push('message is not a non-empty string');
  if ('details' in body) {
    const details = body.details;
    const wellFormed =
      Array.isArray(details) &&
      details.every(
        (detail) =>
          isPlainObject(detail) &&
          Object.keys(detail).every((key) => key === 'path' || key === 'message') &&
          typeof detail.path === 'string' &&
          typeof detail.message === 'string',
      );
    if (!wellFormed) found.push(`details is not a list of {path, message}: ${JSON.stringify(details).slice(0, 200)}`);
  }
  for (const leak of LEAKS) {
    if (leak.test(text) && !leak.test(requestText)) found.push(`the error body leaks internals (${leak}): ${text.slice(0, 200)}`);
  }
  return found;
}

/** What an answer breaks: no 5xx, the error body on every 4xx, security headers, JSON that parses. */
export function responseViolations(method: string, status: number, headers: IncomingHttpHeaders, text: string, requestText = ''): string[] {
  const found: string[] = [];
  if (status >= 500 || status < 100) found.push(`status ${status}`);
  if (headers['x-content-type-options'] !== 'nosniff') found.push('no X-Content-Type-Options: nosniff');
  if (method === 'HEAD' || status === 204 || status === 304) return found;
  const json = String(headers['content-type'] ?? '').startsWith('application/json');
  if (status >= 400) {
    if (!json) found.push(`the ${status} answer is ${String(headers['content-type'])}, not JSON`);
    found.push(...errorBodyViolations(status, text, requestText));
  } else if (json) {
    try {
      JSON.parse(text);
    } catch {
      found.push(`the ${status} JSON body does not parse (${text.length} characters)`);
    }
  }
  return found;
}
