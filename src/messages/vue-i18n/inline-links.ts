/**
 * What a vue-i18n linked message becomes on import (CONTRACT "Import": replaced by the linked message's
 * text, one level deep, with a warning). vue-i18n renders a link by rendering the linked message with the
 * same arguments and count, then applying the modifier to the whole result, so the link is inlined where
 * the ICU message then renders what vue-i18n renders, and kept as literal text, with the reason, where
 * it cannot: a key taken from an argument, a missing key, an app's own modifier, a modifier over an
 * argument's value, a plural of another language whose forms this language's rules would choose.
 */
import { appendNode, type Message, type MessageNode } from '../message.js';
import { pluralCategoriesOf } from '../plural-rules.js';
import { pluralTag, type LinkNode, type LinkText } from './read-vue-i18n.js';

/** The message a linked key names, as read (its own links still literal text), and where it was found. */
export interface LinkedMessage {
  readonly message: Message;
  readonly language: string;
  /** its text holds links of its own: they stay literal text (one level deep) */
  readonly ownLinks: boolean;
  /** the length of its ICU source, counted against the inlining budget */
  readonly length: number;
}

/** The message `key` names in the language or its fallbacks, if any. */
export type LinkLookup = (key: string) => LinkedMessage | undefined;

interface Modifier {
  readonly done: string;
  /** what it does to the value of an argument, which an ICU message cannot say */
  readonly onArguments: string;
  /** true when only the first character changes (an argument is touched only when it comes first) */
  readonly firstOnly: boolean;
  readonly apply: (text: string) => string;
}

/**
 * vue-i18n's built-in modifiers (core-base's getDefaultLinkedModifiers). `capitalize` upper-cases the
 * first UTF-16 unit with the browser's locale; here with no locale's special cases, the same outside
 * Turkish, Azeri and Lithuanian dotted i's.
 */
const MODIFIERS: Readonly<Record<string, Modifier>> = {
  upper: { done: 'upper-cased', onArguments: 'upper-cases', firstOnly: false, apply: (text) => text.toUpperCase() },
  lower: { done: 'lower-cased', onArguments: 'lower-cases', firstOnly: false, apply: (text) => text.toLowerCase() },
  capitalize: { done: 'capitalised', onArguments: 'capitalises', firstOnly: true, apply: (text) => text.charAt(0).toUpperCase() + text.slice(1) },
};

/**
 * The LinkText of one message in `language`: each link inlined or kept, and `note` told which and why.
 * Inlined text past `budget` characters in all is kept as links (the message would pass any limit).
 */
export function linkInliner(language: string, lookup: LinkLookup, note: (message: string) => void, budget: number): LinkText {
  let spent = 0;
  return (link) => {
    const kept = (why: string) => {
      note(`the link ${link.source} is kept as literal text: ${why}`);
      return undefined;
    };
    if (link.keyFromArgument) return kept(`vue-i18n takes its key from the argument {${link.key}} when the message is shown`);
    if (link.key === '') return kept("it names no key (vue-i18n 9–11 read none after `@:` here; `@:(key)` is vue-i18n 8's form)");
    const modifier = link.modifier === undefined ? undefined : MODIFIERS[link.modifier];
    if (link.modifier !== undefined && !modifier) return kept(`"${link.modifier}" is not one of vue-i18n's modifiers (upper, lower, capitalize); an app's own modifier has no ICU form`);
    const target = lookup(link.key);
    if (!target) return kept(`no message ${link.key} to link to, in this language or the base language${punctuationHint(link, lookup)}`);
    const foreignPlural = target.language !== language && target.message.some((node) => node.kind === 'plural');
    if (foreignPlural && pluralCategoriesOf(pluralTag(target.language)).join() !== pluralCategoriesOf(pluralTag(language)).join()) {
      return kept(`${link.key} is only in ${target.language}, a plural whose forms vue-i18n would choose by ${language}'s rules`);
    }
    if (modifier && target.ownLinks) return kept(`${link.key} has links of its own, which the modifier would change`);
    const touched = modifier && touchedArgument(target.message, modifier);
    if (modifier && touched !== undefined) return kept(`vue-i18n ${modifier.onArguments} the value of {${touched}} too, which an ICU message cannot say`);
    if (spent + target.length > budget) return kept(`with its linked messages inlined the message would pass ${budget} characters`);
    spent += target.length;
    const from = target.language === language ? '' : ` (${target.language}'s, as vue-i18n's fallbackLocale gives it)`;
    const own = target.ownLinks ? '; its own links stay literal text (links are inlined one level deep)' : '';
    note(`the link ${link.source} is replaced by the text of ${link.key}${from}${modifier ? `, ${modifier.done}` : ''}${own}`);
    return modifier ? modified(target.message, modifier) : target.message;
  };
}

/**
 * vue-i18n 8 ended a key before punctuation, 9–11 read it up to a space: `@:common.save.` links the
 * missing `common.save.`. Where the key without its trailing punctuation exists, say how to link it.
 */
function punctuationHint(link: LinkNode, lookup: LinkLookup): string {
  const key = link.key.replace(/[.,:;!?]+$/, '');
  if (key === link.key || key === '' || link.keyFromArgument || !lookup(key)) return '';
  const rest = link.key.slice(key.length);
  return ` (vue-i18n 9–11 read a key up to a space, "${rest}" included; ${link.source.slice(0, link.source.indexOf(':') + 1)}{'${key}'}${rest} links ${key})`;
}

/** Each form of a linked message: itself, or each case of the plural it is. */
function forms(message: Message): Message[] {
  const only = message.length === 1 ? message[0] : undefined;
  return only?.kind === 'plural' ? only.cases.map((c) => c.message) : [message];
}

/** The first argument whose value the modifier would change (a `#` is digits: no case to change). */
function touchedArgument(message: Message, modifier: Modifier): string | undefined {
  for (const form of forms(message)) {
    const nodes = modifier.firstOnly ? form.slice(0, 1) : form;
    const argument = nodes.find((node) => node.kind === 'argument');
    if (argument?.kind === 'argument') return argument.name;
  }
  return undefined;
}

/** The message with the modifier applied to its text (each case of a plural on its own, as vue-i18n renders one form). */
function modified(message: Message, modifier: Modifier): Message {
  const apply = (nodes: Message): Message => {
    const out: MessageNode[] = [];
    nodes.forEach((node, index) => {
      if (node.kind === 'plural') out.push({ ...node, cases: node.cases.map((c) => ({ key: c.key, message: apply(c.message) })) });
      else if (node.kind === 'text' && (!modifier.firstOnly || index === 0)) appendNode(out, { kind: 'text', value: modifier.apply(node.value) });
      else appendNode(out, node);
    });
    return out;
  };
  return apply(message);
}
