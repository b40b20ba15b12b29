/**
 * fleet-mixed (PostgreSQL only): the mixed workload against a fleet of three instances behind HAProxy
 * and PgBouncer (`scripts/cluster.mjs`, the same configuration as `npm run cluster`), beside the same
 * workload against one of those instances directly, in the same run, on the same data. Every process
 * shares the machine's cores with the others (and with the load generator): the figures show what the
 * balancer and the pooler cost and what a fleet gives on one machine, not a fleet's capacity on several.
 *
 * The fleet works in a database of its own (PgBouncer does not pass on the schema option the other
 * scenarios use), created here and dropped at the end; the small project is seeded through the fleet.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { apiClient } from './api-client.mjs';
import { measure } from './load.mjs';
import { freePort } from './processes.mjs';
import { mixedScenario } from './scenarios.mjs';
import { seedSmallProject } from './small-project.mjs';
import { createBenchUser } from './tolk-server.mjs';

const CLUSTER = fileURLToPath(new URL('../../scripts/cluster.mjs', import.meta.url));
const INSTANCES = 3;
const START_TIMEOUT_MS = 120_000;

async function admin(postgresUrl, statement) {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Starts the cluster on `databaseUrl`; resolves its first announcement and a stop function. */
async function startCluster(databaseUrl, port) {
  const child = spawn(process.execPath, [CLUSTER, '--instances', String(INSTANCES), '--port', String(port)], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors = (errors + chunk).slice(-4000)));
  const announced = new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline >= 0) resolve(JSON.parse(buffered.slice(0, newline)));
    });
    child.once('exit', (code) => reject(new Error(`the cluster exited (${code}) before it answered:\n${errors}`)));
    setTimeout(() => reject(new Error(`the cluster did not answer within ${START_TIMEOUT_MS / 1000} s:\n${errors}`)), START_TIMEOUT_MS).unref();
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  try {
    return { fleet: await announced, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs fleet-mixed on the PostgreSQL server of `postgresUrl`; `say` reports progress. */
export async function measureFleet({ postgresUrl, cleanup, load, say }) {
  const database = `tolk_bench_fleet_${randomBytes(4).toString('hex')}`;
  await admin(postgresUrl, `create database ${database}`);
  const dropDatabase = () => admin(postgresUrl, `drop database if exists ${database} with (force)`);
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  url.search = '';
  let stopCluster = async () => {};
  // Runs once: at the end of this function, or at the bench's own end if it is interrupted meanwhile.
  const release = cleanup.add('the fleet and its database', async () => {
    await stopCluster();
    await dropDatabase();
  });
  try {
    const { fleet, stop } = await startCluster(url.toString(), await freePort());
    stopCluster = stop;
    say(`postgres: fleet-mixed: ${INSTANCES} instances behind ${fleet.url} (HAProxy, PgBouncer on port ${fleet.pgbouncer.port})`);
    const pooled = new URL(url);
    pooled.port = String(fleet.pgbouncer.port);
    const user = await createBenchUser(pooled.toString(), `fleet-${randomBytes(3).toString('hex')}@example.com`, { DATABASE_NAMED_STATEMENTS: 'false' });
    const small = await seedSmallProject(apiClient(fleet.url, user.apiKey));
    const headers = { authorization: `Bearer ${user.apiKey}` };
    const one = await measure({ url: async () => fleet.instances[0].url }, mixedScenario(small, 'mixed, one instance'), { ...load, headers });
    const all = await measure({ url: async () => fleet.url }, mixedScenario(small, 'fleet-mixed'), { ...load, headers });
    return { instances: INSTANCES, one, fleet: all };
  } finally {
    await release();
  }
}
