/** The web application's account operations: sign-up, sign-in, password and profile changes. */
import { AppError, validationError } from '../../errors.js';
import { findUserByEmail, findUserById, revokeKeysOfUser, setPasswordHash, updateUserProfile, type ProfileChanges } from '../../store/repositories/users.js';
import type { Db } from '../../store/schema.js';
import type { Principal } from '../access/project-access.js';
import { nowIso } from '../shared/ids.js';
import { checkProfileFields, createPasswordUser, emailTaken, getProfile, type NewUserInput } from '../users/create-user.js';
import { sendSignUpAttemptNotice, sendVerificationLink, type MailSetup } from './email-verification.js';
import { checkPasswordLength, hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords.js';
import { admitPasswordChange, admitSignIn, admitSignUp, passwordChangeSucceeded, signInSucceeded } from './sign-in-throttle.js';
import { endOtherSessions, startSession, type LiveSession, type StartedSession } from './web-sessions.js';

/** The one answer to every failed sign-in, whether the e-mail has an account or not. */
const WRONG_CREDENTIALS = 'the e-mail or the password is wrong';

export type SignedIn = StartedSession & { user: Awaited<ReturnType<typeof getProfile>> };

/**
 * Creates an account with a password (web sign-up) and signs it in. The address is not proved by
 * this: with mail set up, a verification link is mailed (a mail failure never fails the sign-up; the
 * user can ask for a new link). A taken address is still 409, since the new account is signed in at
 * once and its user must learn that it was not made; with mail, the address's owner is told.
 */
export async function signUp(db: Db, input: NewUserInput & { password: string; address: string }, mail?: MailSetup): Promise<SignedIn> {
  checkPasswordLength(input.password, '/body/password');
  await admitSignUp(db, input.address);
  // Checked before hashing too (the insert still decides): a taken e-mail costs no scrypt run.
  const existing = await findUserByEmail(db, input.email);
  if (existing) {
    if (mail) sendSignUpAttemptNotice(mail, existing.email);
    throw emailTaken(input.email);
  }
  const passwordHash = await hashPassword(input.password);
  const { id } = await createPasswordUser(db, input, passwordHash);
  if (mail) await sendVerificationLink(db, mail, { id, email: input.email }).catch((error: unknown) => mail.logFailure(error, 'verification link'));
  return { ...(await startSession(db, id)), user: await getProfile(db, { userId: id }) };
}

/** Checks e-mail and password (attempts limited per e-mail and per address) and starts a session. */
export async function signIn(db: Db, input: { email: string; password: string; address: string }): Promise<SignedIn> {
  await admitSignIn(db, input.email, input.address);
  const user = await findUserByEmail(db, input.email);
  const valid = user?.password_hash ? await verifyPassword(input.password, user.password_hash) : await verifyAgainstDecoy(input.password);
  // The attempt was counted as a failure up front; only a success changes that.
  if (!user || !valid) throw new AppError('ERR_UNAUTHORIZED', WRONG_CREDENTIALS);
  await signInSucceeded(db, input.email, input.address);
  return { ...(await startSession(db, user.id)), user: await getProfile(db, { userId: user.id }) };
}

/**
 * Changes the caller's password after checking the current one (wrong ones limited per user, as
 * sign-ins are); signs out the user's other browsers and, with `revokeApiKeys`, revokes all their keys.
 */
export async function changePassword(
  db: Db,
  principal: Principal,
  session: LiveSession | null,
  input: { currentPassword: string; newPassword: string; revokeApiKeys?: boolean | undefined },
): Promise<void> {
  checkPasswordLength(input.newPassword, '/body/newPassword');
  const user = await findUserById(db, principal.userId);
  if (!user) throw new AppError('ERR_SETTINGS_PROFILE_USER_NOT_FOUND', 'the user no longer exists');
  await admitPasswordChange(db, user.id);
  if (!user.password_hash || !(await verifyPassword(input.currentPassword, user.password_hash))) {
    throw validationError('the current password is wrong', '/body/currentPassword');
  }
  await passwordChangeSucceeded(db, user.id);
  await setPasswordHash(db, user.id, await hashPassword(input.newPassword));
  await endOtherSessions(db, user.id, session);
  if (input.revokeApiKeys === true) await revokeKeysOfUser(db, user.id, nowIso());
}

/** Sets a user's password from the CLI (`tolk users set-password`); ends all their sessions. */
export async function setPasswordForEmail(db: Db, email: string, password: string): Promise<{ id: string }> {
  checkPasswordLength(password, '/password');
  const user = await findUserByEmail(db, email);
  if (!user) throw new AppError('ERR_NOT_FOUND', `no user with e-mail ${email}`);
  await setPasswordHash(db, user.id, await hashPassword(password));
  await endOtherSessions(db, user.id, null);
  return { id: user.id };
}

/** Changes the caller's names, locale or time zone (PATCH /info). */
export async function updateProfile(
  db: Db,
  principal: Principal,
  input: { firstName?: string | undefined; lastName?: string | undefined; locale?: string | undefined; timezone?: string | undefined },
) {
  checkProfileFields(input);
  const changes: ProfileChanges = {};
  if (input.firstName !== undefined) changes.first_name = input.firstName;
  if (input.lastName !== undefined) changes.last_name = input.lastName;
  if (input.locale !== undefined) changes.locale = input.locale;
  if (input.timezone !== undefined) changes.timezone = input.timezone;
  if (Object.keys(changes).length === 0) throw validationError('nothing to update');
  await updateUserProfile(db, principal.userId, changes);
  return getProfile(db, principal);
}
