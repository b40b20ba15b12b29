/** Reads a password for `--password-stdin`: the first line of standard input, so it never shows in `ps` or shell history. */
import { text } from 'node:stream/consumers';
import { AppError } from '../errors.js';
import { checkPasswordLength } from '../domain/accounts/passwords.js';

/** The first line of stdin without its line ending; refuses an empty or out-of-range password. */
export async function readPasswordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new AppError('ERR_VALIDATION', '--password-stdin reads the password from a pipe, e.g. printf "%s\\n" "$PASSWORD" | tolk …');
  const input = await text(process.stdin);
  const password = input.split(/\r?\n/, 1)[0] ?? '';
  checkPasswordLength(password, '/password');
  return password;
}
