/**
 * How ICU picks a plural's branch, and a test of whether a target's own way of picking (i18next's
 * suffix keys, vue-i18n's pipe forms, gen-l10n's pluralLogic) picks the same one for every count.
 * Trying the numbers that tell CLDR's rules apart is exact where a rule-by-rule argument is error-prone.
 */
import { exactValue, otherCase, type Message, type PluralNode } from './message.js';
import type { MessageIds } from './message-identity.js';
import { PLURAL_SAMPLES, pluralCategoryOf } from './plural-rules.js';

/** The branch ICU (intl-messageformat) renders for `count`: an exact `=count` case, else the category's, else other. */
export function icuBranch(plural: PluralNode, language: string, count: number): Message {
  const exact = plural.cases.find((c) => exactValue(c.key) === count);
  if (exact) return exact.message;
  const category = pluralCategoryOf(language, count, plural.ordinal);
  return plural.cases.find((c) => c.key === category)?.message ?? otherCase(plural);
}

/** Two branches that render alike: the same one, or two cases with equal messages (`=1 {A} one {A}`). */
function sameBranch(a: Message | undefined, b: Message, ids: MessageIds | undefined): boolean {
  if (a === b) return true;
  if (a === undefined) return false;
  return ids ? ids.of(a) === ids.of(b) : JSON.stringify(a) === JSON.stringify(b);
}

/**
 * True when `choose(count)` returns the branch ICU picks (or one equal to it: gen-l10n reads `=1 {A}` as
 * Russian's one too, which equals ICU's `=1 {A} one {A}`), for every sample count. `ids`, when given,
 * compares branches by their content's id instead of printing them.
 */
export function choosesLikeIcu(plural: PluralNode, language: string, choose: (count: number) => Message | undefined, ids?: MessageIds): boolean {
  return PLURAL_SAMPLES.every((count) => sameBranch(choose(count), icuBranch(plural, language, count), ids));
}

/** How many answers a KeptChoices keeps before it starts again (shapes are few in practice; this bounds a hostile variety). */
const KEPT_CHOICES = 10_000;

/**
 * choosesLikeIcu's answers for one target whose choice depends only on the language and the plural's
 * cases (their keys in order, and which of them are equal): a plural of a shape already tried is
 * answered without trying the ~220 sample counts again. Deeply nested plurals have hundreds of plurals
 * of one shape per message.
 */
export class KeptChoices {
  private readonly kept = new Map<string, boolean>();

  /** choosesLikeIcu, looked up by the plural's shape when already answered for this language. */
  choosesLikeIcu(plural: PluralNode, language: string, choose: (count: number) => Message | undefined, ids: MessageIds): boolean {
    const firstEqual = plural.cases.map((c) => ids.of(c.message));
    const shape = plural.cases.map((c, i) => `${c.key}=${firstEqual.indexOf(firstEqual[i]!)}`).join(' ');
    const key = `${language} ${plural.ordinal ? 'o' : 'c'} ${shape}`;
    let answer = this.kept.get(key);
    if (answer === undefined) {
      answer = choosesLikeIcu(plural, language, choose, ids);
      if (this.kept.size >= KEPT_CHOICES) this.kept.clear();
      this.kept.set(key, answer);
    }
    return answer;
  }
}
