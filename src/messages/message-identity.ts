/**
 * Equality of messages by content, each subtree looked at once: a plural nested in a plural nested in
 * … is compared by the ids of its parts, not by printing every part again at every level (which made
 * the checks of deeply nested plurals cost the message's size times its depth, per language).
 */
import type { Message, MessageNode } from './message.js';

/** Gives equal messages one id and different ones different ids; one instance per task (it keeps every id it gave). */
export class MessageIds {
  private readonly ids = new WeakMap<Message, number>();
  private readonly byShape = new Map<string, number>();

  /** The id of `message`'s content. */
  of(message: Message): number {
    let id = this.ids.get(message);
    if (id === undefined) {
      const shape = message.map((node) => this.shapeOf(node)).join('\u0000');
      id = this.byShape.get(shape);
      if (id === undefined) {
        id = this.byShape.size;
        this.byShape.set(shape, id);
      }
      this.ids.set(message, id);
    }
    return id;
  }

  /** One node as a string in which its parts appear by id (JSON quoting keeps texts and names apart from the rest). */
  private shapeOf(node: MessageNode): string {
    switch (node.kind) {
      case 'text':
        return `t${JSON.stringify(node.value)}`;
      case 'argument':
        return `a${node.name}`;
      case 'pound':
        return '#';
      case 'plural':
      case 'select': {
        const kind = node.kind === 'select' ? 's' : node.ordinal ? 'o' : 'p';
        return `${kind}${node.name}${node.cases.map((c) => ` ${c.key}:${this.of(c.message)}`).join('')}`;
      }
    }
  }
}
