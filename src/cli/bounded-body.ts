/**
 * Reads a response body with a ceiling: `tolk pull` and `tolk push` read what a server sends, and a
 * hostile or broken one may send without end. Past the ceiling the connection is dropped (leaving the
 * loop cancels the body, and fetch closes the socket), so memory holds at most `limit` bytes.
 */

/** The default ceiling of a download and of an archive's unpacked files (`--max-bytes`). */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** An error body is one message: a proxy's page fits, a stream without end does not. */
const ERROR_BODY_BYTES = 64 * 1024;

/** `1048576` → `1,048,576`. */
export const byteCount = (bytes: number): string => bytes.toLocaleString('en');

/**
 * The whole body, or `tooLarge()` thrown as soon as it passes `limit` bytes (at once when its
 * Content-Length says so). `onProgress` gets the bytes received so far.
 */
export async function readBounded(response: Response, limit: number, tooLarge: () => Error, onProgress?: (received: number) => void): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of response.body ?? []) {
    received += chunk.byteLength;
    if (received > limit) throw tooLarge();
    chunks.push(chunk);
    onProgress?.(received);
  }
  return Buffer.concat(chunks);
}

/** An error response's text, or '' when it is longer than any error message. */
export async function readErrorText(response: Response): Promise<string> {
  try {
    return (await readBounded(response, ERROR_BODY_BYTES, () => new Error('too long'))).toString('utf8');
  } catch {
    return '';
  }
}
