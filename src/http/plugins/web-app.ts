/**
 * Serves the web application (web/dist, built by `npm run build`) at `/`: hashed assets cached for a
 * year, and index.html for the contract's deep links, which the app's router then draws.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const WEB_ROOT = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** The app's own code and styles only: no inline script, no eval, no other site. */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The app's pages: whatever follows these is the app's router's business (the last two: an invitation's link, the mailed one). */
export const DEEP_LINKS: readonly string[] = ['/', '/sign-up', '/settings', '/settings/*', '/projects/*', '/invitations/accept', '/verify-email'];

/** Registers the web application when it has been built; returns whether it was. */
export async function installWebApp(app: FastifyInstance): Promise<boolean> {
  if (!existsSync(`${WEB_ROOT}/index.html`)) {
    app.log.warn({ webRoot: WEB_ROOT }, 'the web application is not built (npm run build); serving the API only');
    return false;
  }
  await app.register(async (web) => {
    web.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', WEB_CSP);
      // The API's `same-origin` would be right too; the pages may be opened from links elsewhere.
      reply.header('cross-origin-resource-policy', 'same-site');
      return payload;
    });
    await web.register(fastifyStatic, {
      root: WEB_ROOT,
      // Files are looked up on each request, so a rebuild while running serves the new hashed assets.
      index: false,
      // Our own cache-control below (the plugin's default would override it).
      cacheControl: false,
      setHeaders: (response, path) => {
        const hashed = path.includes('/assets/');
        response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    for (const url of DEEP_LINKS) {
      web.get(url, { schema: { hide: true } }, (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
    }
  });
  return true;
}
