/**
 * Proving an e-mail address: a link with a one-time token is mailed to it (when the server has
 * SMTP_URL), and following it marks the account verified, so that it accepts the invitations sent to
 * that address without the inviter's link. Only the token's sha256 is stored, as for API keys.
 */
import { randomBytes } from 'node:crypto';
import { AppError, validationError } from '../../errors.js';
import type { Mailer } from '../../mail/mailer.js';
import { consumeEmailVerification, findUserById, lastEmailVerificationAt, replaceEmailVerification } from '../../store/repositories/users.js';
import type { Db } from '../../store/schema.js';
import type { Principal } from '../access/project-access.js';
import { hashSecret } from '../keys/api-keys.js';
import { nowIso } from '../shared/ids.js';

/** How the server mails: its mailer, the base URL its links start with, and where a failed send is logged. */
export interface MailSetup {
  mailer: Mailer;
  /** PUBLIC_URL: never the request's Host, which a stranger chooses */
  publicUrl: string;
  logFailure: (error: unknown, what: string) => void;
}

const LINK_LIFETIME_MS = 48 * 3600_000;
/** A new link at most this often per account: the resend route cannot be used to flood a mailbox. */
export const RESEND_INTERVAL_MS = 60_000;

/** Sends in the background: a slow or failing mail server never holds or fails the request (it is logged). */
function sendLater(mail: MailSetup, to: string, subject: string, text: string): void {
  mail.mailer.send({ to, subject, text }).catch((error: unknown) => mail.logFailure(error, subject));
}

/** Makes the user a new verification link (earlier ones stop working) and mails it. */
export async function sendVerificationLink(db: Db, mail: MailSetup, user: { id: string; email: string }): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await replaceEmailVerification(db, user.id, hashSecret(token), new Date(now).toISOString(), new Date(now + LINK_LIFETIME_MS).toISOString());
  // In the fragment, which browsers never send: no server or proxy log records the token.
  const url = `${mail.publicUrl}/verify-email#token=${token}`;
  sendLater(
    mail,
    user.email,
    'Confirm your e-mail address for tolk',
    `Someone (probably you) made a tolk account with this address.\n\nTo confirm that it is yours, open this link within 48 hours:\n${url}\n\nIf it was not you, ignore this message: the account cannot accept invitations sent to your address.\n`,
  );
}

/** Tells the owner of an address that someone tried to sign up with it (sign-up still answers 409). */
export function sendSignUpAttemptNotice(mail: MailSetup, email: string): void {
  sendLater(
    mail,
    email,
    'Someone tried to sign up to tolk with your address',
    `Someone tried to make a new tolk account with this address, which already has one.\n\nIf it was you, sign in at ${mail.publicUrl}/ instead. If it was not, you need not do anything.\n`,
  );
}

/** Follows a verification link: the token's account is verified; an unknown, used or expired token is 400. */
export async function verifyEmail(db: Db, token: string): Promise<void> {
  const userId = await consumeEmailVerification(db, hashSecret(token), nowIso());
  if (userId === undefined) throw validationError('this verification link is not valid: it was used, replaced by a newer one, or expired; ask for a new one', '/body/token');
}

/** Sends the caller a new verification link (POST /auth/verify-email/resend); without SMTP there is no mail to send. */
export async function resendVerificationLink(db: Db, mail: MailSetup | undefined, principal: Principal): Promise<void> {
  const user = await findUserById(db, principal.userId);
  if (!user) throw new AppError('ERR_SETTINGS_PROFILE_USER_NOT_FOUND', 'the user no longer exists');
  if (user.email_verified_at !== null) throw new AppError('ERR_CONFLICT', 'this e-mail address is verified already');
  if (!mail) throw new AppError('ERR_CONFLICT', 'this server sends no mail (no SMTP_URL): ask the inviter for the invitation link, or an administrator');
  const last = await lastEmailVerificationAt(db, user.id);
  const wait = last === undefined ? 0 : Date.parse(last) + RESEND_INTERVAL_MS - Date.now();
  if (wait > 0) {
    const seconds = String(Math.ceil(wait / 1000));
    throw new AppError('ERR_QUOTA_EXCEEDED', `a link was sent less than a minute ago; try again in ${seconds} s`, undefined, { 'retry-after': seconds });
  }
  await sendVerificationLink(db, mail, { id: user.id, email: user.email });
}
