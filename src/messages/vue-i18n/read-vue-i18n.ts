/**
 * vue-i18n's syntax read back into ICU messages, the printer's rules backwards: a literal interpolation
 * `{'…'}` is its character, `{x}` an argument, and pipe forms one plural (the `=0` form first when there
 * is one more form than the language has categories; on `count` or `n`, whose uses are its `#`). Linked
 * messages (`@:key`, `@.lower:key`, `@:{'key'}`) are read as vue-i18n's tokenizer reads them; the caller
 * says what each one becomes (inline-links.ts), else it stays literal text.
 */
import { appendNode, type ArgumentNode, type Message, type MessageCase, type MessageNode, type PluralNode, type TextNode } from '../message.js';
import { pluralCategoriesOf } from '../plural-rules.js';
import { printIcu } from '../print-icu.js';
import { caseFor, caseKeysOf } from './plural-cases.js';

/** A linked message as vue-i18n 9–11 read it: `@`, an optional `.modifier`, `:`, then the key. */
export interface LinkNode {
  readonly kind: 'link';
  /** the link as written: what stays in the text when it is not inlined */
  readonly source: string;
  readonly modifier: string | undefined;
  /** the linked key; '' when none is written (`@:(key)` is vue-i18n 8's form: 9–11 read no key there) */
  readonly key: string;
  /** vue-i18n takes the key from an argument when it is one (`@:{name}`, `@:{0}`) */
  readonly keyFromArgument: boolean;
}

export type VueFormNode = TextNode | ArgumentNode | LinkNode;

/** What the caller puts in place of a link: the linked message (modifier applied), or undefined to keep it literal. */
export type LinkText = (link: LinkNode) => Message | undefined;

/** A literal interpolation `{'…'}` (its content escaped as vue-i18n's tokenizer reads it) and an argument `{ x }`, each tried at a `{`. */
const LITERAL_BODY = String.raw`'((?:[^'\\\r\n\u2028\u2029]|\\(?:\\|'|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6}))*)'`;
const LITERAL = new RegExp(String.raw`\{${LITERAL_BODY}\}`, 'y');
const ARGUMENT = /\{\s*([A-Za-z0-9_]+)\s*\}/y;
/**
 * A link, tried at an `@`: the modifier is an identifier; the key is a literal interpolation, an
 * argument (a key known only at run time), or the characters up to a space, `{`, `@`, `|`, `(`, `)`
 * (dots, colons and line breaks included: vue-i18n's readLinkedRefer). An `@` that fits none stays text.
 */
const LINK = new RegExp(String.raw`@(?:\.([A-Za-z_][A-Za-z0-9_$]*))?:(?:\{[ \n]*${LITERAL_BODY}[ \n]*\}|\{[ \n]*([A-Za-z0-9_$-]+)[ \n]*\}|([^ {@|()]*))`, 'y');
/** Where the next token can start: a brace, a pipe or an `@`. */
const TOKEN_START = /[{|@]/g;
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
 * interpolations and arguments are read where a `{` is, links where an `@` is. A regular expression
 * that also looked for `\s*\|\s*` at every character read each run of spaces again from each of its
 * characters (9.5 s for 80,000 spaces).
 */
export function readForms(message: string): VueFormNode[][] {
  const forms: VueFormNode[][] = [[]];
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
    const token = message[at] === '@' ? readLink(message, at) : readPlaceholder(message, at);
    if (!token) continue;
    text(message.slice(last, at));
    if (token.node.kind === 'text') text(token.node.value);
    else forms.at(-1)!.push(token.node);
    last = TOKEN_START.lastIndex = at + token.length;
  }
  text(message.slice(last));
  return forms.map((form) => {
    const merged: VueFormNode[] = [];
    for (const node of form) appendNode(merged, node);
    return merged;
  });
}

type Token = { readonly node: VueFormNode; readonly length: number };

function readPlaceholder(message: string, at: number): Token | undefined {
  const literal = matchAt(LITERAL, message, at);
  if (literal) return { node: { kind: 'text', value: literalContent(literal[1]!) }, length: literal[0].length };
  const argument = matchAt(ARGUMENT, message, at);
  return argument ? { node: { kind: 'argument', name: argument[1]! }, length: argument[0].length } : undefined;
}

function readLink(message: string, at: number): Token | undefined {
  const link = matchAt(LINK, message, at);
  if (!link) return undefined;
  const [source, modifier, literalKey, argumentKey, plainKey] = link;
  const key = literalKey !== undefined ? literalContent(literalKey) : (argumentKey ?? plainKey ?? '');
  return { node: { kind: 'link', source, modifier, key, keyFromArgument: argumentKey !== undefined }, length: source.length };
}

/** The sticky `pattern`'s match at `at`, if any. */
function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

/**
 * The plural cases `count` pipe forms are read as in `language`: its categories, or `=0` and its
 * categories when there is one form more (what the export writes, so import is its inverse); else
 * vue-i18n's own default reading of 2 and 3 forms (`one | other`, `=0 | one | other`); undefined past that.
 */
export function pipeKeys(count: number, language: string): string[] | undefined {
  const categories = pluralCategoriesOf(pluralTag(language));
  if (count === categories.length) return [...categories];
  if (count === categories.length + 1) return ['=0', ...categories];
  if (count === 2) return ['one', 'other'];
  if (count === 3) return ['=0', 'one', 'other'];
  return undefined;
}

/** The tag whose plural rules a language's texts follow: files name locales `pt_BR` as often as `pt-BR`, and Intl knows only the latter. */
export const pluralTag = (language: string) => language.replaceAll('_', '-');

const keepLinksLiteral: LinkText = () => undefined;

/**
 * The ICU message of one vue-i18n message in `language`; throws for pipe forms that fit no plural of it.
 * Each link becomes what `linkText` gives (literal text by default). vue-i18n picks a linked plural's
 * form with the same count as the message's own, so a plural a link brings in and the message's own
 * pipe forms become one plural whose every case holds the matching case of each.
 */
export function readVueMessage(message: string, language: string, linkText: LinkText = keepLinksLiteral): string {
  const forms = readForms(message);
  const linked = new Map<LinkNode, Message | undefined>();
  for (const node of forms.flat()) if (node.kind === 'link') linked.set(node, linkText(node));
  const linkedPlurals = [...linked.values()].flatMap((target) => pluralOf(target) ?? []);
  if (forms.length === 1 && linkedPlurals.length === 0) return printIcu(splice(forms[0]!, linked, () => undefined));
  const ownKeys = forms.length === 1 ? ['other'] : pipeKeys(forms.length, language);
  if (!ownKeys) throw new Error(`${forms.length} pipe forms fit no plural of ${language} (${pluralCategoriesOf(pluralTag(language)).join(', ')})`);
  const argument = forms.length > 1 ? pluralArgument(forms) : linkedPlurals[0]!.name;
  const keys = caseKeysOf([ownKeys, ...linkedPlurals.map((plural) => plural.cases.map((c) => c.key))]);
  const cases: MessageCase[] = keys.map((key) => {
    const form = forms[ownKeys.indexOf(caseFor(ownKeys, key, pluralTag(language)))]!;
    const nodes = splice(form, linked, (plural) => branchOf(plural, key, pluralTag(language), argument));
    return { key, message: nodes.map((node): MessageNode => (node.kind === 'argument' && node.name === argument ? { kind: 'pound' } : node)) };
  });
  return printIcu([{ kind: 'plural', name: argument, ordinal: false, cases }]);
}

/** The form's nodes with each link replaced by its linked message (a plural by `branch`'s case of it) or by its literal text. */
function splice(form: readonly VueFormNode[], linked: ReadonlyMap<LinkNode, Message | undefined>, branch: (plural: PluralNode) => Message | undefined): MessageNode[] {
  const nodes: MessageNode[] = [];
  for (const node of form) {
    if (node.kind !== 'link') appendNode(nodes, node);
    else {
      const target = linked.get(node);
      const plural = pluralOf(target);
      for (const inner of (plural && branch(plural)) ?? target ?? [{ kind: 'text', value: node.source } as const]) appendNode(nodes, inner);
    }
  }
  return nodes;
}

/** The plural a linked message is (the shape readVueMessage gives pipe forms), if it is one. */
function pluralOf(message: Message | undefined): PluralNode | undefined {
  const only = message?.length === 1 ? message[0] : undefined;
  return only?.kind === 'plural' ? only : undefined;
}

/**
 * The case of a linked plural that the count choosing `key` picks; its `#` counted its own argument,
 * which stays that argument when the message's plural is on another one.
 */
function branchOf(plural: PluralNode, key: string, language: string, argument: string): Message {
  const chosen = plural.cases.find((c) => c.key === caseFor(plural.cases.map((c) => c.key), key, language))!.message;
  if (plural.name === argument) return chosen;
  return chosen.map((node): MessageNode => (node.kind === 'pound' ? { kind: 'argument', name: plural.name } : node));
}

/**
 * The plural's argument, which pipe forms do not name: `count` or `n` (vue-i18n's own implicit plural
 * arguments) when the `other` form uses it, else `count`, with the forms' arguments kept as they are.
 */
function pluralArgument(forms: readonly (readonly VueFormNode[])[]): string {
  const other = new Set(forms.at(-1)!.flatMap((node) => (node.kind === 'argument' ? [node.name] : [])));
  return ['count', 'n'].find((name) => other.has(name)) ?? 'count';
}
