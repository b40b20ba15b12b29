/** Schemas of the web application's account routes: sign-up/in, session, password, profile, API keys. */
import { Type } from 'typebox';
import { PASSWORD_LENGTH } from '../../domain/accounts/passwords.js';
import { LocaleTag, Nullable, Timestamp } from './common.js';
import { Info } from './metadata.js';

const Email = Type.String({ minLength: 3, maxLength: 254, description: 'e-mail address' });
const Password = Type.String({ minLength: PASSWORD_LENGTH.min, maxLength: PASSWORD_LENGTH.max, description: '8–256 characters' });
const PersonName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const TimeZone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin' });

export const SessionState = Type.Object({
  user: Nullable(Info),
  csrfToken: Nullable(Type.String({ description: 'send it as x-csrf-token with every state change made with the session cookie' })),
  signUpOpen: Type.Boolean(),
});

export const SignedIn = Type.Object({ user: Info, csrfToken: Type.String() });

export const SignUpBody = Type.Object(
  {
    email: Email,
    password: Password,
    firstName: PersonName,
    lastName: PersonName,
    locale: Type.Optional(LocaleTag),
    timezone: Type.Optional(TimeZone),
  },
  { additionalProperties: false },
);

export const SignInBody = Type.Object(
  // No length rules beyond a sane bound: a wrong password gets the one "wrong e-mail or password" answer.
  { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  {
    currentPassword: Type.String({ maxLength: 1024 }),
    newPassword: Password,
    revokeApiKeys: Type.Optional(Type.Boolean({ description: "also revoke all the user's API keys (default false)" })),
  },
  { additionalProperties: false },
);

export const Usage = Type.Object({
  limit: Type.Integer({ description: "the user's daily quota: requests a UTC day, made with an API key or the web session alike" }),
  used: Type.Integer({ description: 'requests counted today' }),
  remaining: Type.Integer({ description: 'requests left today' }),
  resetsInSeconds: Type.Integer({ description: 'seconds until the count resets, at the next 00:00 UTC' }),
});

export const UpdateProfileBody = Type.Object(
  {
    firstName: Type.Optional(PersonName),
    lastName: Type.Optional(PersonName),
    locale: Type.Optional(LocaleTag),
    timezone: Type.Optional(TimeZone),
  },
  { additionalProperties: false },
);

export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'the first characters of the secret, to recognise the key' }),
  createdAt: Timestamp,
  lastUsedAt: Nullable(Type.String({ format: 'date-time', description: 'to the minute' })),
  expiresAt: Nullable(Timestamp),
});

export const CreatedApiKey = Type.Object({
  ...ApiKey.properties,
  secret: Type.String({ description: 'the key itself: shown in this answer only, never again' }),
});

export const CreateApiKeyBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }), expiresAt: Type.Optional(Nullable(Timestamp)) },
  { additionalProperties: false },
);

export const Invitation = Type.Object({
  projectId: Type.String(),
  projectName: Type.String(),
  role: Type.String(),
  invitedAt: Timestamp,
});
