/**
 * Messages in i18next's own syntax (JSON v4 plurals, default options): `{x}` → `{{x}}`; one plural on
 * `count` → the keys `key_<category>` for each CLDR category of the language, plus `key_zero` for `=0`;
 * `#` → `{{count, number}}` (i18next's number format, so the number reads as ICU writes it).
 *
 * i18next 26 (i18next.js, Translator.resolve): for t(key, {count}) it looks up `key_zero` first when
 * count is 0, then `key_<Intl.PluralRules(lng).select(count)>`, then `key`. Its interpolation is the
 * regular expression `{{(.+?)}}` over the whole text, and `$t(` starts nesting; neither can be escaped.
 */
import { exactValue, type Message, type MessageCase } from '../message.js';
import { choosesLikeIcu } from '../plural-choice.js';
import { pluralCategoriesOf, pluralCategoryOf } from '../plural-rules.js';
import { formOf, otherBranch, singlePlural, type OtherBranchNode } from '../single-plural.js';

/** One stored message as i18next keys: `forms` are [suffix, text] pairs ('' for the plain key, `_one`…). */
export interface I18nextMessage {
  readonly forms: ReadonlyArray<readonly [suffix: string, text: string]>;
  /** false when i18next cannot say the message and its `other` branch was written instead */
  readonly native: boolean;
}

/**
 * The interpolations i18next finds in `text` with its default prefix and suffix (Interpolator.resetRegExp:
 * /\{\{(.+?)\}\}/g), found in one pass: that expression read from each `{{` to the end of the line when
 * no `}}` follows (50 million steps for 10,000 braces). Each match is a `{{`, one or more characters of
 * one line, and the first `}}` after them.
 */
export function i18nextInterpolations(text: string): string[] {
  const found: string[] = [];
  const lineBreak = /[\n\r\u2028\u2029]/g;
  // The first `}}` after `{{` and one character, and the first line break after `{{`: both only move
  // forward (-2: not looked for yet; -1: no `}}` left), so the text is read once.
  let close = -2;
  let nextBreak = -2;
  for (let open = text.indexOf('{{'); open !== -1; ) {
    if (close !== -1 && close < open + 3) close = text.indexOf('}}', open + 3);
    if (close === -1) break;
    if (nextBreak < open + 2) {
      lineBreak.lastIndex = open + 2;
      nextBreak = lineBreak.exec(text)?.index ?? text.length;
    }
    if (nextBreak >= close) {
      found.push(text.slice(open, close + 2));
      open = text.indexOf('{{', close + 2);
    } else {
      open = text.indexOf('{{', open + 1);
    }
  }
  return found;
}
const NESTING = '$t(';

/** The message as i18next keys; what i18next cannot say natively is its `other` branch. */
export function printI18next(message: Message, language: string): I18nextMessage {
  const shape = singlePlural(message);
  if (shape && shape.plural.cases.length === 1) {
    // `{x, plural, other {#}}` is a formatted number: one key, `{{x, number}}`, whatever the argument's name.
    const text = printFlat(formOf(shape, shape.plural.cases[0]!.message), shape.plural.name);
    if (text !== undefined) return { forms: [['', text]], native: true };
  } else if (shape && shape.plural.name === 'count') {
    const forms = pluralForms(shape.plural.cases, language);
    if (forms) {
      const printed = forms.map(([suffix, branch]) => [suffix, printFlat(formOf(shape, branch))] as const);
      const native = printed.every(([, text]) => text !== undefined) && choosesLikeI18next(shape.plural, language, forms);
      if (native) return { forms: printed.map(([suffix, text]) => [suffix, text!] as const), native };
    }
  } else if (!message.some((node) => node.kind === 'plural' || node.kind === 'select')) {
    const text = printFlat(message);
    if (text !== undefined) return { forms: [['', text]], native: true };
  }
  return { forms: [['', printLoose(otherBranch(message))]], native: false };
}

/** The forms of a plural in `language`: `_zero` for `=0`, then one per CLDR category; undefined for other exact cases. */
function pluralForms(cases: readonly MessageCase[], language: string): Array<[string, Message]> | undefined {
  if (cases.some((c) => exactValue(c.key) !== undefined && c.key !== '=0')) return undefined;
  const caseOf = (key: string) => cases.find((c) => c.key === key)?.message;
  const other = caseOf('other')!;
  const forms: Array<[string, Message]> = [];
  const exactZero = caseOf('=0');
  for (const category of pluralCategoriesOf(language)) {
    // With a zero category of its own (lv, ar, cy) `_zero` is one key for both; `=0` must agree (checked below).
    const branch = category === 'zero' && exactZero ? exactZero : (caseOf(category) ?? other);
    forms.push([`_${category}`, branch]);
  }
  if (exactZero && !forms.some(([suffix]) => suffix === '_zero')) forms.unshift(['_zero', exactZero]);
  return forms;
}

function choosesLikeI18next(plural: Parameters<typeof choosesLikeIcu>[0], language: string, forms: ReadonlyArray<[string, Message]>): boolean {
  const bySuffix = new Map(forms);
  return choosesLikeIcu(plural, language, (count) => (count === 0 && bySuffix.get('_zero')) || bySuffix.get(`_${pluralCategoryOf(language, count)}`));
}

/** Text, `{{x}}` and `{{count, number}}` (`#` of the plural on `count`); undefined when the literal text would read as i18next syntax. */
function printFlat(message: Message, poundOf = 'count'): string | undefined {
  let text = '';
  const written: string[] = [];
  for (const node of message) {
    if (node.kind === 'text') text += node.value;
    else if (node.kind === 'argument' || node.kind === 'pound') {
      const placeholder = node.kind === 'argument' ? `{{${node.name}}}` : `{{${poundOf}, number}}`;
      text += placeholder;
      written.push(placeholder);
    } else return undefined;
  }
  // i18next must find exactly the interpolations written: a literal `{{`, or a `{` right before one, makes others.
  const found = i18nextInterpolations(text);
  if (found.length !== written.length || found.some((match, i) => match !== written[i])) return undefined;
  return text.includes(NESTING) ? undefined : text;
}

/** The `other` branch, printed even where its literal text reads as i18next syntax (nothing better exists). */
function printLoose(nodes: readonly OtherBranchNode[]): string {
  let text = '';
  for (const node of nodes) {
    if (node.kind === 'text') text += node.value;
    else if (node.kind === 'argument') text += `{{${node.name}}}`;
    else if (node.kind === 'count') text += `{{${node.name}, number}}`;
  }
  return text;
}
