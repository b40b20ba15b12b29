/**
 * Password hashing with scrypt at OWASP's recommended cost (N=2^17, r=8, p=1: 128 MiB and ~0.3 s a
 * hash here). The parameters are stored with each hash, so a later, higher cost applies to new
 * hashes while old ones still verify. scrypt runs on libuv's thread pool, not the event loop.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { validationError } from '../../errors.js';

const COST = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
export const PASSWORD_LENGTH = { min: 8, max: 256 };

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number): Promise<Buffer> {
  // 128 · N · r bytes, plus headroom: Node's default maxmem (32 MiB) is below OWASP's cost.
  const maxmem = 256 * (options.N ?? 0) * (options.r ?? 0) + 1024 * 1024;
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyLength, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Refuses a password outside the contract's 8–256 code points. */
export function checkPasswordLength(password: string, path: string): void {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min || length > PASSWORD_LENGTH.max) {
    throw validationError(`a password must be ${PASSWORD_LENGTH.min}–${PASSWORD_LENGTH.max} characters`, path);
  }
}

/** `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url), the only form a password is stored in. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST, KEY_LENGTH);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` is the one `stored` was made from; false for anything malformed. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  return timingSafeEqual(key, expected);
}

let decoy: Promise<string> | undefined;

/**
 * Spends the same time as checking a real password, for sign-ins with an unknown e-mail: the answer
 * time must not tell which e-mails have accounts.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(randomBytes(12).toString('base64url'));
  await verifyPassword(password, await decoy);
  return false;
}
