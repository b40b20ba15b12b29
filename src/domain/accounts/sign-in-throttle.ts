/**
 * Slows password guessing down without telling which e-mails exist, and without letting a stranger lock
 * the owner out: sign-in attempts are counted per (e-mail, client address) with a small limit, per
 * address across e-mails, and per e-mail across addresses with a much larger backstop against guessing
 * spread over many addresses; all in the database, so that every instance sees the same counts. A
 * stranger's failures thus lock out only the stranger's own address, not the owner's usual one (until
 * the backstop). Each attempt is counted before the password is checked, and given back when it
 * succeeds: a burst of parallel guesses cannot slip past a limit while the first ones are still being
 * checked. Past a limit, attempts in that scope get 429 until its window ends, even with the right
 * password. Wrong current passwords in a password change are limited per user the same way.
 */
import { AppError } from '../../errors.js';
import { clearFailures, countAttempt, uncountAttempt } from '../../store/repositories/sessions.js';
import type { Db } from '../../store/schema.js';

export const THROTTLE = {
  windowMs: 15 * 60_000,
  /** sign-ins of one e-mail from one address */
  perEmailAndAddress: 5,
  /** sign-ins from one address, across e-mails */
  perAddress: 20,
  /** sign-ins of one e-mail across all addresses: the backstop against distributed guessing */
  perEmail: 100,
  signUpsPerAddress: 30,
  /** wrong current passwords in password changes of one user */
  passwordChangesPerUser: 5,
};

const normalEmail = (email: string) => email.toLowerCase();
const emailScope = (email: string) => `email:${normalEmail(email)}`;
const addressScope = (address: string) => `address:${address}`;
// The address goes last: it holds no space, so no two (e-mail, address) pairs share a scope.
const emailAndAddressScope = (email: string, address: string) => `email+address:${normalEmail(email)} ${address}`;
const signUpScope = (address: string) => `sign-up:${address}`;
const passwordChangeScope = (userId: string) => `password-change:${userId}`;

/** Counts an attempt for `scope`; past `limit`, 429 with the seconds until its window ends in Retry-After. */
async function admit(db: Db, scope: string, limit: number, what: string, now: number): Promise<void> {
  const counter = await countAttempt(db, scope, new Date(now).toISOString(), new Date(now - THROTTLE.windowMs).toISOString());
  if (Number(counter.failures) <= limit) return;
  const retryAfter = Math.max(1, Math.ceil((Date.parse(counter.windowStartedAt) + THROTTLE.windowMs - now) / 1000));
  throw new AppError('ERR_QUOTA_EXCEEDED', `too many ${what}; try again in ${Math.ceil(retryAfter / 60)} minutes`, undefined, {
    'retry-after': String(retryAfter),
  });
}

/** Counts a sign-in attempt against the address, the (e-mail, address) pair and the e-mail; 429 past any limit. */
export async function admitSignIn(db: Db, email: string, address: string, now = Date.now()): Promise<void> {
  await admit(db, addressScope(address), THROTTLE.perAddress, 'failed sign-ins from your address', now);
  await admit(db, emailAndAddressScope(email, address), THROTTLE.perEmailAndAddress, 'failed sign-ins', now);
  await admit(db, emailScope(email), THROTTLE.perEmail, 'failed sign-ins', now);
}

/**
 * A successful sign-in: the pair's failures are forgotten; the address's and the e-mail's counts get
 * this attempt back but keep their failures (others' guesses from elsewhere still count to the backstop).
 */
export async function signInSucceeded(db: Db, email: string, address: string): Promise<void> {
  await clearFailures(db, emailAndAddressScope(email, address));
  await uncountAttempt(db, addressScope(address));
  await uncountAttempt(db, emailScope(email));
}

/**
 * Counts a sign-up attempt from a client address; 429 past the limit: each one costs a password hash
 * (~0.3 s of a core), so an address must not be able to make the server hash without end.
 */
export async function admitSignUp(db: Db, address: string, now = Date.now()): Promise<void> {
  await admit(db, signUpScope(address), THROTTLE.signUpsPerAddress, 'sign-ups from your address', now);
}

/**
 * Counts a password change's check of the current password for the user; 429 past the limit: a session
 * left open on a shared computer must not let anyone guess the password (and take the account) without end.
 */
export async function admitPasswordChange(db: Db, userId: string, now = Date.now()): Promise<void> {
  await admit(db, passwordChangeScope(userId), THROTTLE.passwordChangesPerUser, 'wrong current passwords', now);
}

/** A password change whose current password was right: its attempt is given back. */
export async function passwordChangeSucceeded(db: Db, userId: string): Promise<void> {
  await uncountAttempt(db, passwordChangeScope(userId));
}
