/**
 * Slows password guessing down without telling which e-mails exist: failures are counted per e-mail
 * (whether or not it has an account) and per client address, in the database so that every instance
 * sees the same counts. Past a limit, sign-ins for that scope get 429 until its window ends, even
 * with the right password.
 */
import { AppError } from '../../errors.js';
import { clearFailures, countFailure, findFailureCounters } from '../../store/repositories/sessions.js';
import type { Db } from '../../store/schema.js';

export const THROTTLE = { windowMs: 15 * 60_000, perEmail: 5, perAddress: 20, signUpsPerAddress: 30 };

const emailScope = (email: string) => `email:${email.toLowerCase()}`;
const addressScope = (address: string) => `address:${address}`;
const signUpScope = (address: string) => `sign-up:${address}`;

function windowStartAfter(now: number): string {
  return new Date(now - THROTTLE.windowMs).toISOString();
}

/** Throws 429 with Retry-After when the e-mail or the address has used up its failures. */
export async function refuseWhenThrottled(db: Db, email: string, address: string, now = Date.now()): Promise<void> {
  const counters = await findFailureCounters(db, [emailScope(email), addressScope(address)], windowStartAfter(now));
  const blocked = counters.filter(({ scope, failures }) => failures >= (scope.startsWith('email:') ? THROTTLE.perEmail : THROTTLE.perAddress));
  if (blocked.length === 0) return;
  throw tooMany('failed sign-ins', Math.max(...blocked.map((counter) => Date.parse(counter.windowStartedAt) + THROTTLE.windowMs)), now);
}

/** 429 with the seconds until `endsAt` in Retry-After. */
function tooMany(what: string, endsAt: number, now: number): AppError {
  const retryAfter = Math.max(1, Math.ceil((endsAt - now) / 1000));
  return new AppError('ERR_QUOTA_EXCEEDED', `too many ${what}; try again in ${Math.ceil(retryAfter / 60)} minutes`, undefined, {
    'retry-after': String(retryAfter),
  });
}

/**
 * Counts a sign-up attempt from a client address, or refuses it past the limit: each one costs a
 * password hash (~0.3 s of a core), so an address must not be able to make the server hash without end.
 */
export async function countSignUp(db: Db, address: string, now = Date.now()): Promise<void> {
  const [counter] = await findFailureCounters(db, [signUpScope(address)], windowStartAfter(now));
  if (counter && counter.failures >= THROTTLE.signUpsPerAddress) throw tooMany('sign-ups from your address', Date.parse(counter.windowStartedAt) + THROTTLE.windowMs, now);
  await countFailure(db, signUpScope(address), new Date(now).toISOString(), windowStartAfter(now));
}

/** Counts a failed sign-in against the e-mail and the address. */
export async function countFailedSignIn(db: Db, email: string, address: string, now = Date.now()): Promise<void> {
  const at = new Date(now).toISOString();
  await countFailure(db, emailScope(email), at, windowStartAfter(now));
  await countFailure(db, addressScope(address), at, windowStartAfter(now));
}

/** A successful sign-in forgets the e-mail's failures (the address's stay: one account must not reset them). */
export async function forgetFailures(db: Db, email: string): Promise<void> {
  await clearFailures(db, emailScope(email));
}
