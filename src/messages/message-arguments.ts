/** What a message asks of its caller: its arguments and how each is used. */
import type { Message, PluralNode } from './message.js';

/** How a message uses an argument: as text, as a plural's count, an ordinal's, or a select's value. */
export type ArgumentUse = 'text' | 'plural' | 'selectordinal' | 'select';

/** Each argument the message names, in order of first appearance, with every way it is used. */
export function argumentsOf(message: Message): Map<string, Set<ArgumentUse>> {
  const found = new Map<string, Set<ArgumentUse>>();
  const use = (name: string, how: ArgumentUse) => {
    const uses = found.get(name);
    if (uses) uses.add(how);
    else found.set(name, new Set([how]));
  };
  const walk = (nodes: Message) => {
    for (const node of nodes) {
      if (node.kind === 'argument') use(node.name, 'text');
      else if (node.kind === 'plural' || node.kind === 'select') {
        use(node.name, node.kind === 'select' ? 'select' : node.ordinal ? 'selectordinal' : 'plural');
        for (const c of node.cases) walk(c.message);
      }
    }
  };
  walk(message);
  return found;
}

/** Every plural and selectordinal of the message, outermost first. */
export function pluralsOf(message: Message): PluralNode[] {
  const plurals: PluralNode[] = [];
  const walk = (nodes: Message) => {
    for (const node of nodes) {
      if (node.kind === 'plural') plurals.push(node);
      if (node.kind === 'plural' || node.kind === 'select') for (const c of node.cases) walk(c.message);
    }
  };
  walk(message);
  return plurals;
}
