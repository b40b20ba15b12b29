/** A private database per store run: a temp SQLite file, or a fresh PostgreSQL schema dropped at the end. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const DROP_ATTEMPTS = 5;

/**
 * Drops the schema, retrying: just after a server stopped, its backends may still hold locks, and
 * `drop schema … cascade` then fails with a deadlock or lock timeout that a moment later does not recur.
 */
async function dropSchema(url, schema) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await withClient(url, (client) => client.query(`drop schema if exists ${schema} cascade`));
    } catch (error) {
      if (attempt === DROP_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/**
 * Creates the store and registers its removal; returns `{ kind, url, label, dispose }`, `url` being
 * the DATABASE_URL for tolk (on PostgreSQL with `?options=-c search_path=<schema>`).
 */
export async function createBenchStore(kind, postgresUrl, cleanup) {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tolk-bench-'));
    const dispose = cleanup.add(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
    return { kind, url: `sqlite:${join(dir, 'tolk.db')}`, label: `SQLite file in ${dir}`, dispose };
  }
  const schema = `tolk_bench_${randomBytes(6).toString('hex')}`;
  await withClient(postgresUrl, (client) => client.query(`create schema ${schema}`));
  const dispose = cleanup.add(`drop schema ${schema}`, () => dropSchema(postgresUrl, schema));
  const separator = postgresUrl.includes('?') ? '&' : '?';
  const url = `${postgresUrl}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return { kind, url, label: `PostgreSQL schema ${schema}`, dispose };
}
