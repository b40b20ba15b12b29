/** A minimal client of tolk's API for seeding; any non-2xx answer is an error carrying status and body. */
const REQUEST_TIMEOUT_MS = 30_000;

export class ApiError extends Error {
  constructor(method, path, status, body) {
    super(`${method} ${path} → ${status}: ${body.slice(0, 500)}`);
    this.status = status;
    this.body = body;
  }
}

/** `call(method, path, body?)` against `${baseUrl}/api/v1`, authenticated with `apiKey`; resolves the JSON body. */
export function apiClient(baseUrl, apiKey) {
  return async function call(method, path, body) {
    const headers = { authorization: `Bearer ${apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response;
    try {
      response = await fetch(`${baseUrl}/api/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      // fetch says only "fetch failed"; the reason (ECONNRESET, "other side closed", …) is its cause.
      const reason = error.cause?.code ?? error.cause?.message ?? error.message;
      throw new Error(`${method} ${path}: no answer (${reason})`, { cause: error });
    }
    const text = await response.text();
    if (!response.ok) throw new ApiError(method, path, response.status, text);
    return text === '' ? undefined : JSON.parse(text);
  };
}

/** Runs `work(item, index)` over `items` with at most `concurrency` in flight; the first failure stops the rest. */
export async function forEachConcurrently(items, concurrency, work) {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        await work(items[index], index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}
