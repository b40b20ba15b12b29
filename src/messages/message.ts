/**
 * The message model: every stored base term and translation is an ICU MessageFormat message (CONTRACT,
 * "Messages"). This is the one tree every part of tolk reads a message as; the exports print it in each
 * framework's syntax and the import reads it back (see the printers beside this file).
 */

/** Literal text, already unquoted (`''` is one apostrophe here). */
export interface TextNode {
  readonly kind: 'text';
  readonly value: string;
}

/** `{name}`: the argument's value as text. */
export interface ArgumentNode {
  readonly kind: 'argument';
  readonly name: string;
}

/** `#` inside a plural: the number of the innermost plural around it. */
export interface PoundNode {
  readonly kind: 'pound';
}

/** One branch of a plural or select: `=0`, a CLDR category or a select value, and its message. */
export interface MessageCase {
  readonly key: string;
  readonly message: Message;
}

/** `{n, plural, …}` (cardinal) or `{n, selectordinal, …}` (ordinal); cases in the order written. */
export interface PluralNode {
  readonly kind: 'plural';
  readonly name: string;
  readonly ordinal: boolean;
  readonly cases: readonly MessageCase[];
}

/** `{x, select, a {…} other {…}}`; cases in the order written. */
export interface SelectNode {
  readonly kind: 'select';
  readonly name: string;
  readonly cases: readonly MessageCase[];
}

export type MessageNode = TextNode | ArgumentNode | PoundNode | PluralNode | SelectNode;

/** A parsed message: its nodes in order, adjacent texts merged. */
export type Message = readonly MessageNode[];

/** Appends `node` to `nodes`, merging adjacent texts (one text is one run of literal characters, quoted as one). */
export function appendNode<T extends { kind: string }>(nodes: Array<T | TextNode>, node: T | TextNode): void {
  const last = nodes.at(-1);
  if (node.kind === 'text' && last?.kind === 'text') nodes[nodes.length - 1] = { kind: 'text', value: (last as TextNode).value + (node as TextNode).value };
  else if (node.kind !== 'text' || (node as TextNode).value !== '') nodes.push(node);
}

/** The CLDR plural categories in their canonical order (also the order vue-i18n's pipe forms follow). */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralCategory = (typeof PLURAL_CATEGORIES)[number];

export function isPluralCategory(key: string): key is PluralCategory {
  return (PLURAL_CATEGORIES as readonly string[]).includes(key);
}

/** The value of an exact case (`=0` → 0), or undefined for a category. */
export function exactValue(key: string): number | undefined {
  return key.startsWith('=') ? Number(key.slice(1)) : undefined;
}

/** The case a plural or select falls back to; the parser guarantees every one has it. */
export function otherCase(node: PluralNode | SelectNode): Message {
  return node.cases.find((c) => c.key === 'other')?.message ?? [];
}

/** True when the message is plain text (no argument, plural or select). */
export function isPlainText(message: Message): boolean {
  return message.every((node) => node.kind === 'text');
}

/** The plain text of a message made only of text nodes (see isPlainText). */
export function plainText(message: Message): string {
  let text = '';
  for (const node of message) if (node.kind === 'text') text += node.value;
  return text;
}
