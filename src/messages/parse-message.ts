/**
 * Reads a stored text as an ICU message, with @formatjs/icu-messageformat-parser (the parser behind
 * intl-messageformat, our reference renderer), then narrows it to what every export target can carry:
 * no inline formats, no plural offset, ASCII argument names. Quoting is ICU4J's (`'{'`, `''`, `don't`).
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { appendNode, isPluralCategory, type Message, type MessageCase, type MessageNode } from './message.js';

/** Where and why a text is not a message; `offset` counts UTF-16 code units from 0, `column` code points from 1. */
export interface MessageSyntaxError {
  readonly offset: number;
  readonly column: number;
  /** one sentence: what was expected or what is not allowed, with a hint when one is known */
  readonly reason: string;
}

export type ParseResult = { readonly ok: true; readonly message: Message } | { readonly ok: false; readonly error: MessageSyntaxError };

/** Argument names: ASCII identifiers or digits (CONTRACT). */
const ARGUMENT_NAME = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+)$/;
const SELECT_KEY = /^[A-Za-z0-9_-]+$/;
const EXACT_KEY = /^=[0-9]+$/;
/** Characters that can make a text more than literal text; without them a text is itself. */
const SYNTAX = /[{}']/;

/** The parser's error kinds, said as what the writer should have written. */
const EXPECTED: Readonly<Record<string, string>> = {
  EXPECT_ARGUMENT_CLOSING_BRACE: "expected '}' to close the argument (a literal brace is written '{')",
  EMPTY_ARGUMENT: "expected an argument name inside '{}'",
  MALFORMED_ARGUMENT: 'expected an argument name (ASCII letters, digits, _)',
  EXPECT_ARGUMENT_TYPE: "expected 'plural', 'select' or 'selectordinal' after ','",
  INVALID_ARGUMENT_TYPE: "expected 'plural', 'select' or 'selectordinal' after ','",
  EXPECT_SELECT_ARGUMENT_OPTIONS: "expected the cases of the select, e.g. 'a {…} other {…}'",
  EXPECT_SELECT_ARGUMENT_SELECTOR: 'expected a select case name',
  EXPECT_PLURAL_ARGUMENT_SELECTOR: 'expected a plural case (=0, zero, one, two, few, many, other)',
  EXPECT_SELECT_ARGUMENT_SELECTOR_FRAGMENT: "expected '{' and the case's message",
  EXPECT_PLURAL_ARGUMENT_SELECTOR_FRAGMENT: "expected '{' and the case's message",
  INVALID_PLURAL_ARGUMENT_SELECTOR: 'expected a plural case (=0, zero, one, two, few, many, other)',
  DUPLICATE_PLURAL_ARGUMENT_SELECTOR: 'this plural case is given twice',
  DUPLICATE_SELECT_ARGUMENT_SELECTOR: 'this select case is given twice',
  MISSING_OTHER_CLAUSE: "expected an 'other' case, which every plural and select needs",
  EXPECT_PLURAL_ARGUMENT_OFFSET_VALUE: 'plural offsets are not supported',
  INVALID_PLURAL_ARGUMENT_OFFSET_VALUE: 'plural offsets are not supported',
  UNCLOSED_QUOTE_IN_ARGUMENT_STYLE: 'inline formats are not supported',
};

class Refusal extends Error {
  constructor(readonly offset: number, readonly reason: string) {
    super(reason);
  }
}

/** The longest base term or translation, in code points (the API's `Text` rule; CONTRACT: lengths count code points). */
export const MAX_MESSAGE_LENGTH = 10_000;

/** Why `text` is too long to be a stored message, or undefined; checked before a text is parsed. */
export function messageLengthProblem(text: string): string | undefined {
  if (text.length <= MAX_MESSAGE_LENGTH) return undefined;
  let codePoints = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i += 1;
    codePoints += 1;
  }
  return codePoints > MAX_MESSAGE_LENGTH ? `is ${codePoints.toLocaleString('en')} characters; a text is at most ${MAX_MESSAGE_LENGTH.toLocaleString('en')}` : undefined;
}

/** Parses `text` as an ICU message; plain text (no `{`, `}` or `'`) costs one regular-expression test. */
export function parseMessage(text: string): ParseResult {
  if (!SYNTAX.test(text)) return { ok: true, message: text === '' ? [] : [{ kind: 'text', value: text }] };
  let elements: MessageFormatElement[];
  try {
    elements = parse(text, { ignoreTag: true, requiresOtherClause: true, captureLocation: true, shouldParseSkeletons: false });
  } catch (error) {
    const location = (error as { location?: { start?: { offset?: number } } }).location;
    const kind = (error as { message?: string }).message ?? '';
    return failure(text, location?.start?.offset ?? 0, EXPECTED[kind] ?? `not an ICU message (${kind})`);
  }
  try {
    return { ok: true, message: toMessage(elements) };
  } catch (error) {
    if (error instanceof Refusal) return failure(text, error.offset, error.reason);
    throw error;
  }
}

/** The message of a text known to parse (stored texts are validated on write); throws otherwise. */
export function parseStoredMessage(text: string): Message {
  const result = parseMessage(text);
  if (!result.ok) throw new Error(`a stored text is not a message: ${result.error.reason}`);
  return result.message;
}

function failure(text: string, offset: number, reason: string): ParseResult {
  const at = Math.max(0, Math.min(offset, text.length));
  return { ok: false, error: { offset: at, column: [...text.slice(0, at)].length + 1, reason: reason + hintFor(text) } };
}

/** Hints for the syntaxes people bring from other frameworks. */
function hintFor(text: string): string {
  const doubled = doubledBraceName(text);
  if (doubled !== undefined) return `; write {${doubled}} (i18next's {{${doubled}}} is {${doubled}} in an ICU message)`;
  const ruby = /%\{([A-Za-z0-9_]+)\}/.exec(text);
  if (ruby) return `; write {${ruby[1]}}`;
  return '';
}

const NAME_CHAR = /[A-Za-z0-9_]/;
const SPACE = /\s/;

/**
 * The name in the first i18next interpolation `{{ - name …}}` of `text` (what the regular expression
 * /\{\{\s*-?\s*([A-Za-z0-9_]+)[^{}]*\}\}/ finds), in one pass: that expression tried every split of
 * the spaces and letters after each `{{` (120 s for 10,000 characters). Each try here reads up to the
 * next brace, where the next try starts, so every character is read at most twice.
 */
export function doubledBraceName(text: string): string | undefined {
  for (let open = text.indexOf('{{'); open !== -1; open = text.indexOf('{{', open + 1)) {
    let at = open + 2;
    while (at < text.length && SPACE.test(text[at]!)) at += 1;
    if (text[at] === '-') at += 1;
    while (at < text.length && SPACE.test(text[at]!)) at += 1;
    const start = at;
    while (at < text.length && NAME_CHAR.test(text[at]!)) at += 1;
    if (at === start) continue;
    const name = text.slice(start, at);
    while (at < text.length && text[at] !== '{' && text[at] !== '}') at += 1;
    if (text[at] === '}' && text[at + 1] === '}') return name;
  }
  return undefined;
}

function toMessage(elements: readonly MessageFormatElement[]): MessageNode[] {
  const nodes: MessageNode[] = [];
  for (const element of elements) appendNode(nodes, toNode(element));
  return nodes;
}

function toNode(element: MessageFormatElement): MessageNode {
  const at = element.location?.start.offset ?? 0;
  switch (element.type) {
    case TYPE.literal:
      return { kind: 'text', value: element.value };
    case TYPE.pound:
      return { kind: 'pound' };
    case TYPE.argument:
      return { kind: 'argument', name: argumentName(element.value, at) };
    case TYPE.plural: {
      if (element.offset !== 0) throw new Refusal(at, 'plural offsets are not supported (not every target has them)');
      const ordinal = element.pluralType === 'ordinal';
      return { kind: 'plural', name: argumentName(element.value, at), ordinal, cases: casesOf(element.options, at, pluralKeyProblem) };
    }
    case TYPE.select:
      return { kind: 'select', name: argumentName(element.value, at), cases: casesOf(element.options, at, selectKeyProblem) };
    case TYPE.number:
    case TYPE.date:
    case TYPE.time:
      throw new Refusal(at, `inline formats such as {${element.value}, ${TYPE[element.type]}} are not supported (not every target has them); write {${element.value}}`);
    case TYPE.tag:
      throw new Refusal(at, 'tags are not supported'); // unreachable: parsed with ignoreTag
  }
}

function argumentName(name: string, at: number): string {
  if (!ARGUMENT_NAME.test(name)) throw new Refusal(at, `"${name}" cannot name an argument: use ASCII letters, digits and _`);
  return name;
}

function pluralKeyProblem(key: string): string | undefined {
  return EXACT_KEY.test(key) || isPluralCategory(key) ? undefined : `"${key}" is not a plural case: use =0, =1, … or zero, one, two, few, many, other`;
}

function selectKeyProblem(key: string): string | undefined {
  return SELECT_KEY.test(key) ? undefined : `"${key}" cannot be a select case: use ASCII letters, digits, _ and -`;
}

function casesOf(options: Record<string, { value: MessageFormatElement[]; location?: { start: { offset: number } } }>, at: number, problemOf: (key: string) => string | undefined): MessageCase[] {
  return Object.entries(options).map(([key, option]): MessageCase => {
    const problem = problemOf(key);
    if (problem) throw new Refusal(option.location?.start.offset ?? at, problem);
    return { key, message: toMessage(option.value) };
  });
}

/**
 * The message of a stored text for printing: a text stored before messages were validated that does
 * not parse (until the migration has quoted it) is printed as the literal text it always rendered as.
 */
export function storedMessage(text: string): Message {
  const result = parseMessage(text);
  return result.ok ? result.message : [{ kind: 'text', value: text }];
}
