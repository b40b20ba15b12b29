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
});

const Region = Type.Object({ code: Type.String(), name: Type.String() });
export const Locale = Type.Object({ code: Type.String(), name: Type.String(), regions: Nullable(Type.Array(Region)) });

export const Version = Type.Object({ version: Type.String(), build: Type.String() });
