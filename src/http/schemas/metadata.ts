/** Metadata schemas: profile, locales, version. */
import { Type } from 'typebox';
import { Nullable } from './common.js';

export const Info = Type.Object({
  id: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  locale: Type.String(),
  timezone: Type.String(),
  emailVerified: Type.Boolean({
    description: 'whether the owner of the address followed a verification link (an account made by `tolk users create` needs none to accept invitations)',
  }),
});

const Region = Type.Object({ code: Type.String(), name: Type.String() });
export const Locale = Type.Object({ code: Type.String(), name: Type.String(), regions: Nullable(Type.Array(Region)) });

export const Version = Type.Object({ version: Type.String(), build: Type.String() });
