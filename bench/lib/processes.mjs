/** Child processes of the bench (bare server, tolk servers): started on 127.0.0.1, always stopped. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

/** A port that is free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `node <args>` in the repository root, waits until GET `readyPath` answers 2xx, and registers
 * its stop (SIGTERM, SIGKILL after 5 s) with `cleanup`. Every output line goes to `onLine`.
 */
export async function startNodeProcess({ name, args, env, port, readyPath, cleanup, onLine = () => {}, pipeStdin = false }) {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: [pipeStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let exit = null;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve((exit = { code, signal })));
    child.once('error', (error) => resolve((exit = { code: null, signal: null, error })));
  });
  const tail = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      onLine(line);
    });
  }
  const stop = cleanup.add(`stop ${name} (pid ${child.pid})`, async () => {
    if (exit) return;
    child.stdin?.end();
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(force);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(`${url}${readyPath}`, () => exit);
  } catch (error) {
    await stop();
    throw new Error(`${name} did not start: ${error.message}\n${tail.join('\n')}`);
  }
  return { name, pid: child.pid, url, stop, exitStatus: () => exit, outputTail: () => tail.join('\n') };
}

async function waitUntilReady(url, exitOf) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const exit = exitOf();
    if (exit) throw new Error(exit.error ? exit.error.message : `exited (code ${exit.code}, signal ${exit.signal})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`no answer from ${url} within ${READY_TIMEOUT_MS / 1000} s`);
}

/** Starts the bare node:http ceiling server. */
export async function startBareServer(cleanup) {
  const port = await freePort();
  return startNodeProcess({ name: 'bare node:http', args: ['bench/bare-server.mjs'], env: { PORT: String(port) }, port, readyPath: '/', cleanup, pipeStdin: true });
}
