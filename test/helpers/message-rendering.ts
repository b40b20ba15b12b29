/** Reference renderings for the message tests: intl-messageformat on the stored message, its other branch, vue-i18n's plain `#`. */
import { IntlMessageFormat } from 'intl-messageformat';
import type { Message, MessageNode } from '../../src/messages/message.js';
import { printIcu } from '../../src/messages/print-icu.js';
import { otherBranch } from '../../src/messages/single-plural.js';

/** What intl-messageformat renders from an ICU source in `language`. */
export function renderIcu(source: string, language: string, values: object): string {
  return new IntlMessageFormat(source, language, undefined, { ignoreTag: true }).format(values as never) as string;
}

/** The message with each `#` as a plain `{argument}`: how vue-i18n, which has no number format in messages, writes it. */
export function poundsAsArguments(message: Message, count: string | null = null): Message {
  return message.map((node): MessageNode => {
    if (node.kind === 'pound') return { kind: 'argument', name: count! };
    if (node.kind === 'plural') return { ...node, cases: node.cases.map((c) => ({ key: c.key, message: poundsAsArguments(c.message, node.name) })) };
    if (node.kind === 'select') return { ...node, cases: node.cases.map((c) => ({ key: c.key, message: poundsAsArguments(c.message, null) })) };
    return node;
  });
}

/** ICU source of a message's other branch, its counted numbers formatted (`{n, number}`, i18next) or plain (`{n}`, vue-i18n). */
export function otherBranchSource(message: Message, formattedCount: boolean): string {
  let source = '';
  for (const node of otherBranch(message)) {
    if (node.kind === 'text') source += printIcu([node]);
    else if (node.kind === 'argument') source += `{${node.name}}`;
    else if (node.kind === 'count') source += formattedCount ? `{${node.name}, number}` : `{${node.name}}`;
  }
  return source;
}
