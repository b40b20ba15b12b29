/** Helpers of the access tests: members through the API, a project "world" with every kind of caller, server processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { expect } from 'vitest';
import type { Role } from '../../src/domain/access/capabilities.js';
import { TOLK_BIN } from './cli.js';
import { created, createEntry, createGroup, createProject, setTranslation } from './seed.js';
import type { TestServer, TestUser } from './server.js';

export type { TestUser };

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `ownerKey` invites the user with `role`: asserts 200 and a pending invitation. */
export async function invite(server: TestServer, ownerKey: string, projectId: string, user: { email: string }, role: Role) {
  const member = await created(server, ownerKey, `/projects/${projectId}/members`, { email: user.email, role });
  expect(member.confirmed).toBe(false);
  return member;
}

/**
 * The user accepts its invitation: asserts 200 and confirmed. Waits a few milliseconds first, so
 * that consecutive acceptances get distinct timestamps and the acceptance order is the call order.
 */
export async function accept(server: TestServer, user: { apiKey: string }, projectId: string) {
  await sleep(3);
  const response = await server.api('POST', `/projects/${projectId}/members/accept`, { key: user.apiKey });
  expect(response.status, response.text).toBe(200);
  expect(response.body.confirmed).toBe(true);
  return response.body;
}

/** Invites the user with `role` and has it accept: a confirmed member. */
export async function addConfirmedMember(server: TestServer, ownerKey: string, projectId: string, user: TestUser, role: Role) {
  await invite(server, ownerKey, projectId, user, role);
  return accept(server, user, projectId);
}

/** The callers of the role matrix, one user (or key) each; the owner's member limit is CONFIRMED_ROLES.length. */
export interface Cast {
  owner: TestUser;
  admin: TestUser;
  editor: TestUser;
  reviewer: TestUser;
  translator: TestUser;
  viewer: TestUser;
  /** accepts after the five above, so it is beyond the owner's limit; invited as admin */
  overLimit: TestUser;
  /** invited as admin, never accepts */
  pending: TestUser;
  stranger: TestUser;
  /** a revoked key of the owner: any 401 it gets cannot come from a lack of access */
  revokedKey: string;
}

/** The confirmed members within the limit, in acceptance order. */
export const CONFIRMED_ROLES = ['admin', 'editor', 'reviewer', 'translator', 'viewer'] as const satisfies readonly Role[];
export const OVER_LIMIT_ROLE: Role = 'admin';
export const PENDING_ROLE: Role = 'admin';

/** Creates the cast's users; the revoked key is made and revoked by another process (the CLI), as the contract says. */
export async function createCast(server: TestServer, runCli: (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>): Promise<Cast> {
  const owner = await server.user({ memberLimit: CONFIRMED_ROLES.length });
  const [admin, editor, reviewer, translator, viewer, overLimit, pending, stranger] = await Promise.all(
    Array.from({ length: 8 }, () => server.user()),
  ) as [TestUser, TestUser, TestUser, TestUser, TestUser, TestUser, TestUser, TestUser];
  const made = await runCli(['keys', 'create', '--email', owner.email, '--name', 'to-revoke']);
  expect(made.code, made.stderr).toBe(0);
  const key = JSON.parse(made.stdout) as { id: string; apiKey: string };
  const revoked = await runCli(['keys', 'revoke', '--id', key.id]);
  expect(revoked.code, revoked.stderr).toBe(0);
  return { owner, admin, editor, reviewer, translator, viewer, overLimit, pending, stranger, revokedKey: key.apiKey };
}

/** A project of the cast's owner with a group, a sub-group, an entry (in the sub-group) with a translation, and every member. */
export interface World {
  project: { id: string };
  group: { id: string };
  subGroup: { id: string };
  entry: { id: string };
}

/** Builds a world through the API: members accept in the order of CONFIRMED_ROLES, then the over-limit one. */
export async function buildWorld(server: TestServer, cast: Cast): Promise<World> {
  const key = cast.owner.apiKey;
  const project = await createProject(server, key, { name: 'Access world' });
  const group = await createGroup(server, key, project.id, 'main');
  const subGroup = await createGroup(server, key, project.id, 'sub', group.id);
  const entry = await createEntry(server, key, subGroup.id, 'greeting', 'Hello');
  await setTranslation(server, key, entry.id, 'de', 'Hallo');
  for (const role of CONFIRMED_ROLES) await addConfirmedMember(server, key, project.id, cast[role], role);
  await addConfirmedMember(server, key, project.id, cast.overLimit, OVER_LIMIT_ROLE);
  await invite(server, key, project.id, cast.pending, PENDING_ROLE);
  return { project, group, subGroup, entry };
}

/** Seconds from `now` to the next UTC midnight. */
export function secondsToUtcMidnight(now = new Date()): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.ceil((next - now.getTime()) / 1000);
}

/** A TCP port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** what the server wrote to standard output so far (its log records, LOG_LEVEL=warn) */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `tolk serve` (the built CLI) on `databaseUrl` and waits until GET /api/v1/version answers. */
export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [TOLK_BIN, 'serve'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const output = () => stdout;
  const exited = once(child, 'exit');
  const baseUrl = `http://127.0.0.1:${port}/api/v1`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  for (let attempt = 0; attempt < 400; attempt++) {
    if (child.exitCode !== null) throw new Error(`tolk serve exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${baseUrl}/version`).then((r) => r.ok, () => false);
    if (ready) return { baseUrl, child, output, stop };
    await sleep(50);
  }
  await stop();
  throw new Error(`tolk serve did not answer on port ${port}: ${stderr}`);
}
