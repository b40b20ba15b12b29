/**
 * The checks of one translation against its base term and its language (CONTRACT, "Checks"):
 * `placeholders` (different arguments) and `plural-forms` (categories the language needs or never uses).
 */
import { exactValue, isPluralCategory, type Message } from './message.js';
import { argumentsOf, pluralsOf } from './message-arguments.js';
import { pluralCategoriesOf } from './plural-rules.js';

const list = (names: Iterable<string>) => [...names].map((name) => `{${name}}`).join(', ');

/** Why the translation's arguments differ from the base term's, or undefined when they are the same names. */
export function placeholderProblem(translation: Message, baseTerm: Message): string | undefined {
  const own = argumentsOf(translation);
  const base = argumentsOf(baseTerm);
  const missing = [...base.keys()].filter((name) => !own.has(name));
  const extra = [...own.keys()].filter((name) => !base.has(name));
  if (missing.length === 0 && extra.length === 0) return undefined;
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`lacks ${list(missing)} of the base term`);
  if (extra.length > 0) parts.push(`uses ${list(extra)}, which the base term does not have`);
  return parts.join('; ');
}

/** Why a plural of the message lacks a category `language` needs or has one it never uses; undefined when none does. */
export function pluralFormsProblem(message: Message, language: string): string | undefined {
  const problems: string[] = [];
  for (const plural of pluralsOf(message)) {
    const needed = pluralCategoriesOf(language, plural.ordinal);
    const given = plural.cases.map((c) => c.key).filter((key) => exactValue(key) === undefined && isPluralCategory(key));
    const missing = needed.filter((category) => !given.includes(category));
    const unused = given.filter((category) => !needed.includes(category as never));
    const kind = plural.ordinal ? 'selectordinal' : 'plural';
    if (missing.length > 0) problems.push(`the ${kind} on {${plural.name}} lacks ${missing.join(', ')} (${language} uses ${needed.join(', ')})`);
    if (unused.length > 0) problems.push(`the ${kind} on {${plural.name}} has ${unused.join(', ')}, which ${language} never uses`);
  }
  return problems.length > 0 ? problems.join('; ') : undefined;
}
