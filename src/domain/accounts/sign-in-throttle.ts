/**
 * Slows password guessing down without telling which e-mails exist: attempts are counted per e-mail
 * (whether or not it has an account) and per client address, in the database so that every instance
 * sees the same counts. Each attempt is counted before the password is checked, and given back when it
 * succeeds: a burst of parallel guesses cannot slip past the limit while the first ones are still being
 * checked. Past a limit, sign-ins for that scope get 429 until its window ends, even with the right password.
 */
import { AppError } from '../../errors.js';
import { clearFailures, countAttempt, uncountAttempt } from '../../store/repositories/sessions.js';
import type { Db } from '../../store/schema.js';

export const THROTTLE = { windowMs: 15 * 60_000, perEmail: 5, perAddress: 20, signUpsPerAddress: 30 };

const emailScope = (email: string) => `email:${email.toLowerCase()}`;
const addressScope = (address: string) => `address:${address}`;
const signUpScope = (address: string) => `sign-up:${address}`;

/** Counts an attempt for `scope`; past `limit`, 429 with the seconds until its window ends in Retry-After. */
async function admit(db: Db, scope: string, limit: number, what: string, now: number): Promise<void> {
  const counter = await countAttempt(db, scope, new Date(now).toISOString(), new Date(now - THROTTLE.windowMs).toISOString());
  if (Number(counter.failures) <= limit) return;
  const retryAfter = Math.max(1, Math.ceil((Date.parse(counter.windowStartedAt) + THROTTLE.windowMs - now) / 1000));
  throw new AppError('ERR_QUOTA_EXCEEDED', `too many ${what}; try again in ${Math.ceil(retryAfter / 60)} minutes`, undefined, {
    'retry-after': String(retryAfter),
  });
}

/** Counts a sign-in attempt against the e-mail and the address; 429 past either limit. */
export async function admitSignIn(db: Db, email: string, address: string, now = Date.now()): Promise<void> {
  await admit(db, addressScope(address), THROTTLE.perAddress, 'failed sign-ins from your address', now);
  await admit(db, emailScope(email), THROTTLE.perEmail, 'failed sign-ins', now);
}

/** A successful sign-in: the e-mail's failures are forgotten and the address's count gets its attempt back (its failures stay). */
export async function signInSucceeded(db: Db, email: string, address: string): Promise<void> {
  await clearFailures(db, emailScope(email));
  await uncountAttempt(db, addressScope(address));
}

/**
 * Counts a sign-up attempt from a client address; 429 past the limit: each one costs a password hash
 * (~0.3 s of a core), so an address must not be able to make the server hash without end.
 */
export async function admitSignUp(db: Db, address: string, now = Date.now()): Promise<void> {
  await admit(db, signUpScope(address), THROTTLE.signUpsPerAddress, 'sign-ups from your address', now);
}
