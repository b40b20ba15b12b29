/** Runs the built `tolk` command as a user would. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const TOLK_BIN = fileURLToPath(new URL('../../bin/tolk.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `tolk <args>` with DATABASE_URL set, `stdin` piped in when given; never throws on a non-zero exit. */
export function runCli(databaseUrl: string, args: string[], stdin?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [TOLK_BIN, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
    child.stdin?.end(stdin ?? '');
  });
}
