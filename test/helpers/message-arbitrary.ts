/** fast-check generators of ICU messages (as our model's trees), dense in syntax characters and plural shapes. */
import fc from 'fast-check';
import { appendNode, type Message, type MessageCase, type MessageNode } from '../../src/messages/message.js';

const TEXT_UNITS = ['a', 'b', ' ', '{', '}', "'", '#', '|', '@', '%', '<', '>', 'é', '\\', '$t(', '{{'];
const text = fc.array(fc.constantFrom(...TEXT_UNITS), { minLength: 1, maxLength: 5 }).map((parts): MessageNode => ({ kind: 'text', value: parts.join('') }));
const argument = fc.constantFrom('name', 'count', 'n', 'x').map((name): MessageNode => ({ kind: 'argument', name }));
const pound: fc.Arbitrary<MessageNode> = fc.constant({ kind: 'pound' });

/** Adjacent texts merged, as the parser gives them. */
function merged(nodes: MessageNode[]): Message {
  const out: MessageNode[] = [];
  for (const node of nodes) appendNode(out, node);
  return out;
}

const flat = (inPlural: boolean) => fc.array(fc.oneof(text, argument, ...(inPlural ? [pound] : [])), { maxLength: 4 }).map(merged);

const PLURAL_KEYS = ['=0', '=1', 'zero', 'one', 'two', 'few', 'many'];

const plural = (inner: fc.Arbitrary<Message>) =>
  fc
    .record({
      name: fc.constantFrom('count', 'n'),
      ordinal: fc.boolean().map((b) => b && Math.random() < 0.3),
      keys: fc.subarray(PLURAL_KEYS),
      messages: fc.array(inner, { minLength: PLURAL_KEYS.length + 1, maxLength: PLURAL_KEYS.length + 1 }),
    })
    .map(({ name, ordinal, keys, messages }): MessageNode => {
      const cases: MessageCase[] = [...keys, 'other'].map((key, i) => ({ key, message: messages[i]! }));
      return { kind: 'plural', name, ordinal, cases };
    });

const select = (inner: fc.Arbitrary<Message>) =>
  fc.tuple(inner, inner).map(([a, other]): MessageNode => ({ kind: 'select', name: 'g', cases: [{ key: 'female', message: a }, { key: 'other', message: other }] }));

/** A message: mostly plain or one plural (what apps hold), sometimes selects, ordinals, two plurals or nesting. */
export const messageArbitrary: fc.Arbitrary<Message> = fc.oneof(
  { weight: 2, arbitrary: flat(false) },
  { weight: 4, arbitrary: fc.tuple(flat(false), plural(flat(true)), flat(false)).map(([a, p, b]) => merged([...a, p, ...b])) },
  { weight: 1, arbitrary: fc.tuple(flat(false), select(flat(false))).map(([a, s]) => merged([...a, s])) },
  { weight: 1, arbitrary: fc.tuple(plural(flat(true)), plural(flat(true))).map(([a, b]) => merged([a, { kind: 'text', value: ' ' }, b])) },
  { weight: 1, arbitrary: select(fc.tuple(flat(false), plural(flat(true))).map(([a, p]) => merged([...a, p]))).map((s) => [s]) },
);

export const languageArbitrary = fc.constantFrom('en', 'de', 'fr', 'ru', 'pl', 'ar', 'ja', 'cy', 'lv');
