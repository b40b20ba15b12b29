/**
 * How ICU picks a plural's branch, and a test of whether a target's own way of picking (i18next's
 * suffix keys, vue-i18n's pipe forms, gen-l10n's pluralLogic) picks the same one for every count.
 * Trying the numbers that tell CLDR's rules apart is exact where a rule-by-rule argument is error-prone.
 */
import { exactValue, otherCase, type Message, type PluralNode } from './message.js';
import { PLURAL_SAMPLES, pluralCategoryOf } from './plural-rules.js';

/** The branch ICU (intl-messageformat) renders for `count`: an exact `=count` case, else the category's, else other. */
export function icuBranch(plural: PluralNode, language: string, count: number): Message {
  const exact = plural.cases.find((c) => exactValue(c.key) === count);
  if (exact) return exact.message;
  const category = pluralCategoryOf(language, count, plural.ordinal);
  return plural.cases.find((c) => c.key === category)?.message ?? otherCase(plural);
}

/** Two branches that render alike: the same one, or two cases with equal messages (`=1 {A} one {A}`). */
function sameBranch(a: Message | undefined, b: Message): boolean {
  return a === b || (a !== undefined && JSON.stringify(a) === JSON.stringify(b));
}

/**
 * True when `choose(count)` returns the branch ICU picks (or one equal to it: gen-l10n reads `=1 {A}` as
 * Russian's one too, which equals ICU's `=1 {A} one {A}`), for every sample count.
 */
export function choosesLikeIcu(plural: PluralNode, language: string, choose: (count: number) => Message | undefined): boolean {
  return PLURAL_SAMPLES.every((count) => sameBranch(choose(count), icuBranch(plural, language, count)));
}
