/**
 * The shape every target can say natively: one plural with plain text and arguments around it and
 * inside its cases (`You have {count, plural, one {# item} other {# items}}.`). Targets that write a
 * plural as separate forms (i18next keys, vue-i18n pipes) distribute the text around it into each form.
 */
import { appendNode, otherCase, type Message, type MessageNode, type PluralNode } from './message.js';

export interface SinglePlural {
  readonly plural: PluralNode;
  readonly before: Message;
  readonly after: Message;
}

const isFlat = (nodes: Message) => nodes.every((node) => node.kind === 'text' || node.kind === 'argument' || node.kind === 'pound');

/** The message's one cardinal plural with what surrounds it, or undefined when the message has another shape. */
export function singlePlural(message: Message): SinglePlural | undefined {
  const at = message.findIndex((node) => node.kind !== 'text' && node.kind !== 'argument');
  if (at < 0) return undefined;
  const plural = message[at]!;
  if (plural.kind !== 'plural' || plural.ordinal) return undefined;
  const before = message.slice(0, at);
  const after = message.slice(at + 1);
  if (!isFlat(after) || after.some((node) => node.kind === 'pound')) return undefined;
  if (!plural.cases.every((c) => isFlat(c.message))) return undefined;
  return { plural, before, after };
}

/** One form of a single plural: the case's message with the surrounding text around it. */
export function formOf(shape: SinglePlural, branch: Message): Message {
  return [...shape.before, ...branch, ...shape.after];
}

export type OtherBranchNode = MessageNode | { kind: 'count'; name: string };

/**
 * The message a target writes when it cannot say `message`: every plural and select replaced by its
 * `other` branch, recursively, adjacent texts merged. Each `#` is paired with the argument it counted.
 */
export function otherBranch(message: Message): OtherBranchNode[] {
  const out: OtherBranchNode[] = [];
  const walk = (nodes: Message, countOf: string | null) => {
    for (const node of nodes) {
      if (node.kind === 'plural') walk(otherCase(node), node.name);
      else if (node.kind === 'select') walk(otherCase(node), null);
      else if (node.kind === 'pound') out.push(countOf === null ? { kind: 'text', value: '#' } : { kind: 'count', name: countOf });
      else appendNode(out, node);
    }
  };
  walk(message, null);
  return out;
}
