/** Talks to a test server as the web application's browser does: session cookie, CSRF token, Origin. */
import type { ApiResponse, TestServer } from './server.js';

export interface BrowserSession {
  cookie: string;
  csrfToken: string;
  user: { id: string; email: string };
  /** a request with the cookie, the token and this server's Origin unless `headers` override them */
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<ApiResponse>;
}

let addressCounter = 0;

/** The server's origin, as a browser on its pages would send it. */
export const originOf = (server: TestServer) => new URL(server.baseUrl).origin;

/** The `tolk_session=…` pair of a response's Set-Cookie, for sending back. */
export function sessionCookieOf(response: { headers: Headers }): string {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('tolk_session='));
  if (!cookie) throw new Error('no session cookie was set');
  return cookie.split(';')[0]!;
}

/** Signs in (or up, with `signUp` fields) and returns a session to make requests with. */
export async function openBrowserSession(
  server: TestServer,
  credentials: { email: string; password: string },
  signUp?: { firstName: string; lastName: string },
): Promise<BrowserSession> {
  const origin = originOf(server);
  const path = signUp ? '/auth/sign-up' : '/auth/sign-in';
  // Its own client address (honoured where the server trusts a proxy), so sign-up limits do not add up across tests.
  const address = `198.51.100.${(addressCounter = (addressCounter % 250) + 1)}`;
  const response = await server.api('POST', path, { body: { ...credentials, ...signUp }, headers: { origin, 'x-forwarded-for': address } });
  if (response.status !== (signUp ? 201 : 200)) throw new Error(`${path} answered ${response.status}: ${response.text}`);
  const cookie = sessionCookieOf(response);
  const csrfToken: string = response.body.csrfToken;
  return {
    cookie,
    csrfToken,
    user: response.body.user,
    call: (method, callPath, options = {}) =>
      server.api(method, callPath, {
        ...(options.body === undefined ? {} : { body: options.body }),
        headers: { cookie, origin, 'x-csrf-token': csrfToken, ...options.headers },
      }),
  };
}
