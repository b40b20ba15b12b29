/**
 * The editor's view of a message, from the server's own message model (src/messages): one parser and
 * one set of rules for both. A plural is edited as one field per CLDR category of the cell's language;
 * a cell shows the problems the checks endpoint would report for it.
 */
import { argumentsOf } from '../../../../src/messages/message-arguments.js';
import { placeholderProblem, pluralFormsProblem } from '../../../../src/messages/message-checks.js';
import { parseMessage } from '../../../../src/messages/parse-message.js';
import { pluralCategoriesOf } from '../../../../src/messages/plural-rules.js';
import { printIcu } from '../../../../src/messages/print-icu.js';
import { singlePlural } from '../../../../src/messages/single-plural.js';
import { notNativeTargets } from '../../../../src/messages/targets.js';

/** A message that is one plural: its argument, the texts around it and one ICU fragment per case. */
export interface PluralShape {
  argument: string;
  before: string;
  after: string;
  /** case keys in editing order: `=0` first if any, then the language's categories */
  keys: string[];
  forms: Record<string, string>;
}

/** Why `text` is not a message, or undefined when it is one. */
export function syntaxProblem(text: string): string | undefined {
  const result = parseMessage(text);
  return result.ok ? undefined : `${result.error.reason} (character ${result.error.column})`;
}

/** The cases a plural is edited with in `language`: `=0` when the source has it, then its CLDR categories. */
function keysFor(language: string, hasZero: boolean): string[] {
  return [...(hasZero ? ['=0'] : []), ...pluralCategoriesOf(language)];
}

/**
 * The plural shape of `text` in `language`, or of `template` (the base term) with empty forms when the
 * text is empty; undefined when neither is one plural.
 */
export function pluralShapeOf(text: string, language: string, template: string): PluralShape | undefined {
  const source = text.trim() === '' ? template : text;
  const parsed = parseMessage(source);
  if (!parsed.ok) return undefined;
  const shape = singlePlural(parsed.message);
  if (!shape || shape.plural.cases.some((c) => c.key.startsWith('=') && c.key !== '=0')) return undefined;
  const fresh = source !== text;
  const caseOf = (key: string) => shape.plural.cases.find((c) => c.key === key);
  const keys = keysFor(language, caseOf('=0') !== undefined);
  const forms: Record<string, string> = {};
  for (const key of keys) {
    const found = caseOf(key);
    forms[key] = fresh || !found ? '' : printIcu(found.message, true);
  }
  return { argument: shape.plural.name, before: fresh ? '' : printIcu(shape.before), after: fresh ? '' : printIcu(shape.after), keys, forms };
}

/** The form of the base term that a translator sees beside the field of `key` (the category's, else other). */
export function baseFormOf(baseTerm: string, key: string): string {
  const parsed = parseMessage(baseTerm);
  const shape = parsed.ok ? singlePlural(parsed.message) : undefined;
  if (!shape) return '';
  const found = shape.plural.cases.find((c) => c.key === key) ?? shape.plural.cases.find((c) => c.key === 'other');
  return found ? printIcu(found.message, true) : '';
}

/** The ICU message of an edited plural shape. */
export function composePlural(shape: PluralShape): string {
  const cases = shape.keys.map((key) => `${key} {${shape.forms[key] ?? ''}}`).join(' ');
  return `${shape.before}{${shape.argument}, plural, ${cases}}${shape.after}`;
}

/** The arguments of `text` (the base term's, for chips), in order of first use; none when it does not parse. */
export function argumentNames(text: string): string[] {
  const parsed = parseMessage(text);
  return parsed.ok ? [...argumentsOf(parsed.message).keys()] : [];
}

export interface CellProblems {
  /** the checks' own sentences: placeholders against the base term, plural forms, syntax */
  messages: string[];
  /** the export formats that cannot say the message natively */
  notNative: string[];
}

const NONE: CellProblems = { messages: [], notNative: [] };

/** What the checks endpoint would say of a cell's message (computed here, for the cells in view). */
export function cellProblems(text: string, language: string, baseTerm: string, isBaseTerm: boolean): CellProblems {
  if (text === '' || !/[{}']/.test(text + baseTerm)) return NONE;
  const parsed = parseMessage(text);
  if (!parsed.ok) return { messages: [parsed.error.reason], notNative: [] };
  const messages: string[] = [];
  const base = parseMessage(baseTerm);
  if (!isBaseTerm && base.ok) {
    const placeholders = placeholderProblem(parsed.message, base.message);
    if (placeholders) messages.push(placeholders);
  }
  const forms = pluralFormsProblem(parsed.message, language);
  if (forms) messages.push(forms);
  return { messages, notNative: notNativeTargets(parsed.message, language) };
}
