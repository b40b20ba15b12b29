/** A real tolk server on a real, private database, for one test file. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp, type AppOptions } from '../../src/app.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { openStore, type Dialect, type Store } from '../../src/store/open-store.js';
import { TEST_DATABASE_URL } from './dialects.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** a raw body sent as is (with its own content type header) */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestServer {
  dialect: Dialect;
  store: Store;
  /** a DATABASE_URL naming this server's private store, for other processes (CLI, more servers) */
  databaseUrl: string;
  baseUrl: string;
  /** Calls `/api/v1<path>`; `key` sends `Authorization: Bearer <key>`. */
  api<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** A new user with a first key; returns its id, email and key. */
  user(options?: { dailyQuota?: number; memberLimit?: number }): Promise<{ id: string; email: string; apiKey: string }>;
  close(): Promise<void>;
}

/** Opens a private store of the dialect: a temp SQLite file, or a fresh PostgreSQL schema. */
export async function openTestStore(dialect: Dialect): Promise<{ store: Store; url: string; schema?: string; dispose: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tolk-test-'));
    const url = `sqlite:${join(dir, 'tolk.db')}`;
    const store = await openStore(url);
    return { store, url, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `tolk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const store = await openStore(TEST_DATABASE_URL, { schema, poolSize: 5 });
  const dispose = async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  };
  // The same schema for other processes (CLI, a second server): libpq's options parameter in the URL.
  const separator = TEST_DATABASE_URL.includes('?') ? '&' : '?';
  const url = `${TEST_DATABASE_URL}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return { store, url, schema, dispose };
}

let userCounter = 0;

export type TestUser = Awaited<ReturnType<TestServer['user']>>;

/** A server with two users: the owner of what a test creates, and a stranger to it. */
export async function startServerWithUsers(dialect: Dialect): Promise<{ server: TestServer; owner: TestUser; stranger: TestUser }> {
  const server = await startServer(dialect);
  return { server, owner: await server.user(), stranger: await server.user() };
}

/** Starts the app on a free loopback port over its own store. */
export async function startServer(dialect: Dialect, options: Omit<AppOptions, 'store'> = {}): Promise<TestServer> {
  const { store, url, dispose } = await openTestStore(dialect);
  const app = await buildApp({ logLevel: 'silent', ...options, store });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `${address}/api/v1`;
  return {
    dialect,
    store,
    databaseUrl: url,
    baseUrl,
    async api(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      let body: string | Uint8Array | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(baseUrl + path, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, body: parsed as any, text };
    },
    async user(options = {}) {
      userCounter += 1;
      const email = `user${userCounter}-${randomBytes(3).toString('hex')}@example.com`;
      return createUser(store.db, { email, firstName: `First${userCounter}`, lastName: `Last${userCounter}`, ...options });
    },
    async close() {
      // As the server's own shutdown does: connections a test's aborted client left half-open
      // are cut after a grace period instead of holding the close forever.
      const deadline = setTimeout(() => app.server.closeAllConnections(), 2_000);
      await app.close();
      clearTimeout(deadline);
      await store.close();
      await dispose();
    },
  };
}
