/** config → store → app → listen, and a graceful shutdown on SIGTERM/SIGINT. */
import { buildApp } from './app.js';
import { tuneHeapGrowth } from './heap-tuning.js';
import { InFlight } from './http/plugins/in-flight.js';
import type { Config } from './config.js';
import { createSmtpMailer } from './mail/mailer.js';
import { openStore } from './store/open-store.js';

const SHUTDOWN_GRACE_MS = 10_000;
/** How often, while shutting down, connections that have finished their requests are closed. */
const IDLE_SWEEP_MS = 100;

/** Serves the API until the process is told to stop. */
export async function serve(config: Config): Promise<void> {
  tuneHeapGrowth();
  const store = await openStore(config.databaseUrl, { namedStatements: config.namedStatements, backgroundCheckpoints: true });
  const lifecycle = { draining: false, inFlight: new InFlight() };
  const app = await buildApp({
    lifecycle,
    store,
    logLevel: config.logLevel,
    metricsToken: config.metricsToken,
    metricsPublic: config.metricsPublic,
    importMaxBytes: config.importMaxBytes,
    signUpOpen: config.signUpOpen,
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    mailer: config.smtp && createSmtpMailer(config.smtp.url, config.smtp.from),
    historyRetentionDays: config.historyRetentionDays,
  });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Out of rotation first: /readyz says so while requests are still served (SHUTDOWN_DRAIN_MS).
    lifecycle.draining = true;
    if (config.shutdownDrainMs > 0) {
      app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: draining');
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    }
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // In-flight requests get a grace period; a connection a vanished client left half-open must
    // not hold the shutdown forever.
    const graceEnds = Date.now() + SHUTDOWN_GRACE_MS;
    const deadline = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    deadline.unref();
    // Fastify closes the keep-alive connections that are idle when closing starts; one whose
    // request finishes later would stay open, holding the shutdown until the deadline.
    const idleSweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    idleSweep.unref();
    let exitCode = 0;
    try {
      await app.close();
      // The connections are closed, but a request whose client went away may still be working.
      if (!(await lifecycle.inFlight.idle(Math.max(0, graceEnds - Date.now())))) {
        app.log.warn({ running: lifecycle.inFlight.count }, 'shutting down: requests still running at the grace deadline');
      }
      await store.close();
      app.log.info('shutting down: store closed');
    } catch (error) {
      // A supervisor must learn that the store may not have been closed cleanly.
      app.log.error({ err: error }, 'shutdown failed');
      exitCode = 1;
    } finally {
      clearInterval(idleSweep);
      process.exit(exitCode);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}
