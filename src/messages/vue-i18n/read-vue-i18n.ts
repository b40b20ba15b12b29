/**
 * vue-i18n's syntax read back into ICU messages, the printer's rules backwards: a literal interpolation
 * `{'…'}` is its character, `{x}` an argument, and pipe forms one plural (the `=0` form first when there
 * is one more form than the language has categories; on `count` or `n`, whose uses are its `#`). What ICU
 * cannot say (`@:` links) stays literal text.
 */
import { appendNode, type Message, type MessageCase, type MessageNode } from '../message.js';
import { pluralCategoriesOf } from '../plural-rules.js';
import { printIcu } from '../print-icu.js';

/** A literal interpolation `{'…'}` (its content escaped as vue-i18n's tokenizer reads it) and an argument `{ x }`, each tried at a `{`. */
const LITERAL = /\{'((?:[^'\\\r\n\u2028\u2029]|\\(?:\\|'|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6}))*)'\}/y;
const ARGUMENT = /\{\s*([A-Za-z0-9_]+)\s*\}/y;
/** Where the next token can start: a brace or a pipe. */
const TOKEN_START = /[{|]/g;
/** The spaces after a pipe, which belong to it. */
const SPACES = /\s*/y;
const LITERAL_ESCAPE = /\\(\\|'|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6})/g;

function literalContent(body: string): string {
  return body.replace(LITERAL_ESCAPE, (_match, escape: string) => {
    if (escape === '\\' || escape === "'") return escape;
    const codePoint = Number.parseInt(escape.slice(1), 16);
    if (codePoint > 0x10ffff) throw new Error(`\\${escape} is no Unicode code point`);
    return String.fromCodePoint(codePoint);
  });
}

/**
 * The message's pipe forms, each as nodes (a single form for a message without pipes), in one pass:
 * a pipe takes the spaces around it (the text before it loses its trailing spaces), literal
 * interpolations and arguments are read where a `{` is. A regular expression that also looked for
 * `\s*\|\s*` at every character read each run of spaces again from each of its characters (9.5 s for
 * 80,000 spaces).
 */
export function readForms(message: string): MessageNode[][] {
  const forms: MessageNode[][] = [[]];
  let last = 0;
  const text = (value: string) => {
    if (value !== '') forms.at(-1)!.push({ kind: 'text', value });
  };
  TOKEN_START.lastIndex = 0;
  for (let start = TOKEN_START.exec(message); start !== null; start = TOKEN_START.exec(message)) {
    const at = start.index;
    if (message[at] === '|') {
      text(message.slice(last, at).trimEnd());
      forms.push([]);
      SPACES.lastIndex = at + 1;
      SPACES.exec(message);
      last = TOKEN_START.lastIndex = SPACES.lastIndex;
      continue;
    }
    const literal = matchAt(LITERAL, message, at);
    const argument = literal ? undefined : matchAt(ARGUMENT, message, at);
    const token = literal ?? argument;
    if (!token) continue;
    text(message.slice(last, at));
    if (literal) text(literalContent(literal[1]!));
    else forms.at(-1)!.push({ kind: 'argument', name: argument![1]! });
    last = TOKEN_START.lastIndex = at + token[0].length;
  }
  text(message.slice(last));
  return forms.map((form) => {
    const merged: MessageNode[] = [];
    for (const node of form) appendNode(merged, node);
    return merged;
  });
}

/** The sticky `pattern`'s match at `at`, if any. */
function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

/** The ICU message of one vue-i18n message in `language`; throws for pipe forms that fit no plural of it. */
export function readVueMessage(message: string, language: string): string {
  const forms = readForms(message);
  if (forms.length === 1) return printIcu(forms[0]!);
  const categories = pluralCategoriesOf(language);
  const keys =
    forms.length === categories.length ? [...categories]
    : forms.length === categories.length + 1 ? ['=0', ...categories]
    : forms.length === 2 ? ['one', 'other']
    : forms.length === 3 ? ['=0', 'one', 'other']
    : undefined;
  if (!keys) throw new Error(`${forms.length} pipe forms fit no plural of ${language} (${categories.join(', ')})`);
  const argument = pluralArgument(forms);
  const cases: MessageCase[] = forms.map((form, index) => ({
    key: keys[index]!,
    message: form.map((node): MessageNode => (node.kind === 'argument' && node.name === argument ? { kind: 'pound' } : node)) as Message,
  }));
  return printIcu([{ kind: 'plural', name: argument, ordinal: false, cases }]);
}

/**
 * The plural's argument, which pipe forms do not name: `count` or `n` (vue-i18n's own implicit plural
 * arguments) when the `other` form uses it, else `count`, with the forms' arguments kept as they are.
 */
function pluralArgument(forms: readonly MessageNode[][]): string {
  const other = new Set(forms.at(-1)!.flatMap((node) => (node.kind === 'argument' ? [node.name] : [])));
  return ['count', 'n'].find((name) => other.has(name)) ?? 'count';
}
