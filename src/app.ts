/** Builds the Fastify application on a store. Never listens: server.ts and the tests do. */
import { readFileSync } from 'node:fs';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { requireApiKey, requireWebSession } from './http/plugins/auth.js';
import { answerClientError, MAX_HEADER_BYTES } from './http/plugins/client-errors.js';
import { installErrorHandling } from './http/plugins/error-handler.js';
import { InFlight } from './http/plugins/in-flight.js';
import { installMetrics } from './http/plugins/metrics.js';
import { API_PREFIX, installOpenApi } from './http/plugins/openapi.js';
import { limitPublicBodies } from './http/plugins/public-bodies.js';
import { meterRequests } from './http/plugins/quota.js';
import { echoRequestId, installRequestIdEcho, requestIdOf } from './http/plugins/request-id.js';
import { installSecurityHeaders, SECURITY_HEADERS } from './http/plugins/security-headers.js';
import { installTextGuard } from './http/plugins/text-guard.js';
import { fastifyTrustProxy } from './http/plugins/trust-proxy.js';
import { drainUnreadBodies } from './http/plugins/unread-bodies.js';
import { installWebApp } from './http/plugins/web-app.js';
import { profileRoute, publicAccountRoutes, sessionAccountRoutes, usageRoute } from './http/routes/accounts.js';
import { apiKeyRoutes } from './http/routes/api-keys.js';
import { checkRoutes } from './http/routes/checks.js';
import { healthRoutes, type Lifecycle } from './http/routes/health.js';
import { historyRoutes } from './http/routes/history.js';
import { revertRoutes } from './http/routes/revert.js';
import { importRoutes } from './http/routes/imports.js';
import { installValidation } from './http/plugins/validation.js';
import { entryRoutes } from './http/routes/entries.js';
import { exportRoutes } from './http/routes/exports.js';
import { groupRoutes } from './http/routes/groups.js';
import { memberRoutes } from './http/routes/members.js';
import { publicVerificationRoutes, resendVerificationRoute } from './http/routes/email-verification.js';
import type { Mailer } from './mail/mailer.js';
import { infoRoute, publicMetadataRoutes } from './http/routes/metadata.js';
import { openApiDocumentRoute } from './http/routes/openapi-document.js';
import { projectRoutes } from './http/routes/projects.js';
import { translationRoutes } from './http/routes/translations.js';
import { reviewRoutes } from './http/routes/review.js';
import { webAppSupportRoutes } from './http/routes/web-app-support.js';
import { ErrorBody } from './http/schemas/common.js';
import type { Store } from './store/open-store.js';
import { ContentCaches } from './domain/shared/content-caches.js';
import { pruneHistory } from './domain/changes/retention.js';
import type { TrustProxy } from './config.js';

export interface AppOptions {
  store: Store;
  logLevel?: string;
  /** when set, GET /metrics needs it as a bearer token; unset, only loopback clients get it */
  metricsToken?: string | undefined;
  /** GET /metrics answers anyone (METRICS_PUBLIC) */
  metricsPublic?: boolean;
  /** whether anyone may sign up in the web application (TOLK_SIGNUP); default open */
  signUpOpen?: boolean;
  /** the proxies whose X-Forwarded-For/-Proto/-Host count (TRUST_PROXY); `true` is the nearest hop only */
  trustProxy?: TrustProxy | boolean;
  /** the largest import body (IMPORT_MAX_BYTES); default 64 MiB */
  importMaxBytes?: number;
  /** set `draining` once the process is shutting down: /readyz then answers 503; `inFlight` counts the running requests */
  lifecycle?: Lifecycle;
  /** PUBLIC_URL: where users reach the server; mailed and invitation links start with it */
  publicUrl?: string | undefined;
  /** sends the e-mail verification links (SMTP_URL; needs publicUrl); without it no mail is sent */
  mailer?: Mailer | undefined;
  /** HISTORY_RETENTION_DAYS: prune the change log at start and hourly; unset, history is kept for ever */
  historyRetentionDays?: number | undefined;
}

export const DEFAULT_IMPORT_MAX_BYTES = 64 * 1024 * 1024;

/** The package version, served as the build of GET /version. */
const PACKAGE_VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/** The spec's 1 MiB request body limit (413 beyond). */
const BODY_LIMIT = 1024 * 1024;

/** Builds the app: the OpenAPI generator first (it collects the routes), public routes, then the API-key scope. */
export async function buildApp({ store, logLevel = 'info', metricsToken, metricsPublic = false, signUpOpen = true, trustProxy = false, importMaxBytes = DEFAULT_IMPORT_MAX_BYTES, lifecycle = { draining: false, inFlight: new InFlight() }, publicUrl, mailer, historyRetentionDays }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: { level: logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    genReqId: requestIdOf,
    // An id of any length that fits in the request reaches its route, and is then an unknown id (404
    // ERR_PROJECT_NOT_FOUND for a project) like any other.
    routerOptions: { maxParamLength: MAX_HEADER_BYTES },
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    // A client gets this long to send its whole request; slow-loris connections are cut.
    requestTimeout: 30_000,
    trustProxy: fastifyTrustProxy(trustProxy),
    clientErrorHandler: answerClientError,
    // The router's own refusals (malformed percent-encoding, an id past maxParamLength) get the contract body too.
    frameworkErrors: (error, request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const body = tooLong
        ? { statusCode: 404, code: 'ERR_NOT_FOUND', message: 'no such resource: an id is too long' }
        : { statusCode: 400, code: 'ERR_VALIDATION', message: 'the URL is not validly percent-encoded' };
      reply.headers(SECURITY_HEADERS);
      echoRequestId(request, reply);
      return (reply as FastifyReply).code(body.statusCode).send(body);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  lifecycle.inFlight.install(app);
  installValidation(app);
  // Every body is JSON (or, for an import, its archive): Fastify's own text/plain parser would hand a
  // JSON text sent as text/plain to validation as a string (400); without it, the answer is 415.
  app.removeContentTypeParser('text/plain');
  installErrorHandling(app);
  installTextGuard(app);
  installSecurityHeaders(app);
  installRequestIdEcho(app);
  drainUnreadBodies(app);
  app.addSchema(ErrorBody);
  app.decorateRequest('principal', null);
  app.decorateRequest('webSession', null);
  // No per-request parsing hook: only session routes read the cookie (plugins/web-session.ts).
  await app.register(fastifyCookie, { hook: false });
  // Before the docs' routes, so that they are counted too.
  installMetrics(app, { store, token: metricsToken, public: metricsPublic });
  await installOpenApi(app, PACKAGE_VERSION);

  const mail = mailer && publicUrl ? { mailer, publicUrl, logFailure: (error: unknown, what: string) => app.log.warn({ err: error }, `mail not sent: ${what}`) } : undefined;
  await app.register(healthRoutes(store, lifecycle));
  await installWebApp(app);
  await app.register(
    async (api) => {
      // Every route open to anyone in one scope: small bodies only (plugins/public-bodies.ts).
      await api.register(async (open) => {
        limitPublicBodies(open);
        await open.register(publicMetadataRoutes(PACKAGE_VERSION));
        await open.register(openApiDocumentRoute);
        await open.register(publicAccountRoutes(store.db, signUpOpen, mail));
        await open.register(publicVerificationRoutes(store.db));
      });
      await api.register(async (authenticated) => {
        // On PostgreSQL the daily counts are in the same database: key check and count in one round trip.
        requireApiKey(authenticated, store.db, { countingQuota: store.usage === store.db });
        meterRequests(authenticated, store.usage);
        const options = { db: store.db, caches: new ContentCaches() };
        await authenticated.register(infoRoute, options);
        await authenticated.register(projectRoutes, options);
        await authenticated.register(groupRoutes, options);
        await authenticated.register(entryRoutes, options);
        await authenticated.register(translationRoutes, options);
        await authenticated.register(reviewRoutes, options);
        await authenticated.register(memberRoutes(publicUrl), options);
        await authenticated.register(exportRoutes(store.reader, store.usage), options);
        await authenticated.register(checkRoutes(store.reader), options);
        await authenticated.register(importRoutes(importMaxBytes), options);
        await authenticated.register(historyRoutes, options);
        await authenticated.register(revertRoutes, options);
        await authenticated.register(profileRoute, options);
        await authenticated.register(usageRoute(store.usage), options);
        await authenticated.register(webAppSupportRoutes, options);
        await authenticated.register(async (sessionOnly) => {
          requireWebSession(sessionOnly);
          await sessionOnly.register(sessionAccountRoutes, options);
          await sessionOnly.register(resendVerificationRoute(mail), options);
          await sessionOnly.register(apiKeyRoutes, options);
        });
      });
    },
    { prefix: API_PREFIX },
  );
  if (historyRetentionDays !== undefined) scheduleHistoryPruning(app, store, historyRetentionDays);
  return app;
}

/** How often the change log is pruned (HISTORY_RETENTION_DAYS): every instance does it; a second prune finds nothing. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

function scheduleHistoryPruning(app: FastifyInstance, store: Store, days: number): void {
  const prune = () =>
    pruneHistory(store.db, days).then(
      (pruned) => app.log.info({ pruned, retentionDays: days }, 'history pruned'),
      (error: unknown) => app.log.error({ err: error }, 'history pruning failed'),
    );
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void prune();
    timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
