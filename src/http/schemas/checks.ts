/** The message checks of a project (CONTRACT, "Checks"). */
import { Type } from 'typebox';
import { CHECK_KINDS } from '../../domain/checks/message-problems.js';
import { PageQuery } from './common.js';

const [placeholders, pluralForms, flutter, i18next, vueI18n] = CHECK_KINDS;

export const CheckKind = Type.Union([Type.Literal(placeholders), Type.Literal(pluralForms), Type.Literal(flutter), Type.Literal(i18next), Type.Literal(vueI18n)], {
  description: '`placeholders`: a translation\'s arguments differ from its base term\'s; `plural-forms`: a plural lacks a category its language needs, or has one it never uses; `not-native:<format>`: that export cannot say the message and writes its other branch',
});

export const ChecksQuery = Type.Object({
  ...PageQuery.properties,
  language: Type.Optional(Type.String({ minLength: 1, maxLength: 35, description: 'only this language of the project' })),
  check: Type.Optional(CheckKind),
});

export const MessageCheck = Type.Object({
  entryId: Type.String(),
  key: Type.String({ description: "the entry's dotted path of group and entry names" }),
  language: Type.String(),
  check: CheckKind,
  message: Type.String({ description: 'what is wrong, for a person' }),
});
