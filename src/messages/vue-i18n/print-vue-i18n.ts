/**
 * Messages in vue-i18n's syntax (9–11): `{x}` stays, literal syntax characters become literal
 * interpolations (escape-message.ts), and one plural becomes pipe forms: the `=0` case if any, then
 * one form per CLDR category of the language in the order zero, one, two, few, many, other, `#` →
 * `{<argument>}`, called as `t(key, args, args[argument])` with the README's `pluralRules`.
 */
import { exactValue, type Message, type PluralNode } from '../message.js';
import { choosesLikeIcu } from '../plural-choice.js';
import { pluralCategoriesOf, pluralCategoryOf } from '../plural-rules.js';
import { formOf, otherBranch, singlePlural } from '../single-plural.js';
import { escapeVueMessage } from './escape-message.js';

export interface VueI18nMessage {
  readonly text: string;
  /** false when vue-i18n cannot say the message and its `other` branch was written instead */
  readonly native: boolean;
}

/** The message in vue-i18n's syntax; what vue-i18n cannot say natively is its `other` branch. */
export function printVueI18n(message: Message, language: string): VueI18nMessage {
  const shape = singlePlural(message);
  if (shape && !shape.plural.cases.some((c) => exactValue(c.key) !== undefined && c.key !== '=0')) {
    const forms = pipeForms(shape.plural, language);
    if (choosesLikeIcu(shape.plural, language, (count) => forms[pipeIndex(language, count, forms.length)])) {
      // vue-i18n trims around pipes only: a lone form (a language with `other` alone) keeps its spaces as they are.
      const text = forms.length === 1 ? printFlat(formOf(shape, forms[0]!), shape.plural.name) : forms.map((branch) => keepEdgeSpaces(printFlat(formOf(shape, branch), shape.plural.name))).join(' | ');
      return { text, native: true };
    }
  } else if (!message.some((node) => node.kind === 'plural' || node.kind === 'select')) {
    return { text: printFlat(message, null), native: true };
  }
  let text = '';
  for (const node of otherBranch(message)) {
    if (node.kind === 'text') text += escapeVueMessage(node.value);
    else if (node.kind === 'argument' || node.kind === 'count') text += `{${node.name}}`;
  }
  return { text, native: false };
}

/** The branches written as pipe forms, in order: `=0` if the message has it, then each category of the language. */
function pipeForms(plural: PluralNode, language: string): Message[] {
  const caseOf = (key: string) => plural.cases.find((c) => c.key === key)?.message;
  const other = caseOf('other')!;
  const forms = pluralCategoriesOf(language).map((category) => caseOf(category) ?? other);
  const zero = caseOf('=0');
  return zero ? [zero, ...forms] : forms;
}

/**
 * The form the README's `pluralRules` function picks: with one form more than the language has
 * categories, the first is `=0`; the others follow the categories in canonical order.
 */
export function pipeIndex(language: string, count: number, formCount: number): number {
  if (formCount <= 1) return 0;
  const categories = pluralCategoriesOf(language);
  const withZero = formCount === categories.length + 1;
  if (withZero && count === 0) return 0;
  const index = categories.indexOf(pluralCategoryOf(language, Math.abs(count)));
  return Math.min((withZero ? 1 : 0) + Math.max(index, 0), formCount - 1);
}

function printFlat(message: Message, countName: string | null): string {
  let text = '';
  for (const node of message) {
    if (node.kind === 'text') text += escapeVueMessage(node.value);
    else if (node.kind === 'argument') text += `{${node.name}}`;
    else if (node.kind === 'pound') text += `{${countName ?? ''}}`;
  }
  return text;
}

/**
 * vue-i18n trims the spaces around each pipe form; a form's own edge spaces survive as literal
 * interpolations. An empty form is a compile error ("Plural must have messages"): an empty literal instead.
 */
function keepEdgeSpaces(form: string): string {
  if (form === '') return "{''}";
  const literal = (spaces: string) => [...spaces].map((ch) => `{'\\u${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}'}`).join('');
  // trimStart/trimEnd strip what `\s` matches; /\s+$/ would read a run of inner spaces again from each of its characters.
  const start = form.length - form.trimStart().length;
  const rest = form.slice(start);
  const core = rest.trimEnd();
  return literal(form.slice(0, start)) + core + literal(rest.slice(core.length));
}
