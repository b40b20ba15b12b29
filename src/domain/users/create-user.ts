/** Creating users (the CLI's `users create`) and reading a user's profile (GET /info). */
import { AppError, validationError } from '../../errors.js';
import { findUserByEmail, findUserById, insertUser } from '../../store/repositories/users.js';
import type { Db } from '../../store/schema.js';
import { createApiKey } from '../keys/api-keys.js';
import { isKnownLocale } from '../../locales/locale-catalog.js';
import { newId, nowIso } from '../shared/ids.js';
import { inTransaction } from '../shared/transaction.js';
import { isUniqueViolation } from '../../store/dialect.js';
import type { Principal } from '../access/project-access.js';

export const DEFAULT_DAILY_QUOTA = 10_000;
export const DEFAULT_MEMBER_LIMIT = 5;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewUserInput {
  email: string;
  firstName: string;
  lastName: string;
  locale?: string;
  timezone?: string;
  dailyQuota?: number;
  memberLimit?: number;
}

/**
 * Whether the text has the shape of an e-mail address (accounts and invitations share the rule). The
 * length first: the expression backtracks quadratically on a run of dots (20,000 took 0.55 s), and
 * `tolk users create --email` reaches it with no schema's maxLength in front.
 */
export const isEmailAddress = (text: string): boolean => text.length <= 254 && EMAIL.test(text);

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Checks the profile fields present in `input` (creation and PATCH /info share these rules). */
export function checkProfileFields(input: { firstName?: string | undefined; lastName?: string | undefined; locale?: string | undefined; timezone?: string | undefined }): void {
  for (const [field, value] of [['firstName', input.firstName], ['lastName', input.lastName]] as const) {
    if (value !== undefined && (value.trim() === '' || [...value].length > 100)) throw validationError(`${field} must be 1–100 characters`, `/${field}`);
  }
  if (input.locale !== undefined && !isKnownLocale(input.locale)) throw validationError(`unknown locale "${input.locale}"`, '/locale');
  if (input.timezone !== undefined && !isTimeZone(input.timezone)) throw validationError(`unknown time zone "${input.timezone}"`, '/timezone');
}

function checkUser(input: NewUserInput): void {
  if (!isEmailAddress(input.email)) throw validationError('email must be an e-mail address', '/email');
  checkProfileFields(input);
  for (const [field, value] of [['dailyQuota', input.dailyQuota], ['memberLimit', input.memberLimit]] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) throw validationError(`${field} must be a whole number ≥ 0`, `/${field}`);
  }
}

/** The conflict of a sign-up or `users create` with an e-mail that has an account. */
export const emailTaken = (email: string) => new AppError('ERR_CONFLICT', `a user with e-mail ${email} already exists`);

/** Inserts a checked user and, in the same transaction, what `then` adds; a taken e-mail is a conflict. */
async function addUser<T>(
  db: Db,
  input: NewUserInput,
  passwordHash: string | null,
  createdBy: 'admin' | 'sign-up',
  then: (trx: Db, id: string) => Promise<T>,
): Promise<T> {
  checkUser(input);
  const id = newId();
  try {
    return await inTransaction(db, async (trx) => {
      await insertUser(trx, {
        id,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        locale: input.locale ?? 'en',
        timezone: input.timezone ?? 'UTC',
        dailyQuota: input.dailyQuota ?? DEFAULT_DAILY_QUOTA,
        memberLimit: input.memberLimit ?? DEFAULT_MEMBER_LIMIT,
        createdAt: nowIso(),
        passwordHash,
        createdBy,
      });
      return then(trx, id);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(input.email);
    throw error;
  }
}

/**
 * Creates a user with a first API key (the CLI's `users create`); with a password hash
 * (domain/accounts/passwords.ts) the user can also sign in to the web application. The administrator
 * who runs it vouches for the address: the user accepts invitations to it without a link.
 */
export async function createUser(db: Db, input: NewUserInput, passwordHash: string | null = null) {
  return addUser(db, input, passwordHash, 'admin', async (trx, id) => ({ id, email: input.email, apiKey: (await createApiKey(trx, id, 'default')).apiKey }));
}

/** Creates a user who signs in with a password and makes API keys in the settings (web sign-up; the address is not proved yet). */
export async function createPasswordUser(db: Db, input: NewUserInput, passwordHash: string): Promise<{ id: string }> {
  return addUser(db, input, passwordHash, 'sign-up', async (_trx, id) => ({ id }));
}

/** Creates another key for the user with this e-mail. */
export async function createKeyForEmail(db: Db, email: string, name: string) {
  const user = await findUserByEmail(db, email);
  if (!user) throw new AppError('ERR_NOT_FOUND', `no user with e-mail ${email}`);
  return createApiKey(db, user.id, name);
}

/** The caller's profile (GET /info). */
export async function getProfile(db: Db, principal: Principal) {
  const user = await findUserById(db, principal.userId);
  if (!user) throw new AppError('ERR_SETTINGS_PROFILE_USER_NOT_FOUND', 'the user of this key no longer exists');
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    locale: user.locale,
    timezone: user.timezone,
    emailVerified: user.email_verified_at !== null,
  };
}
