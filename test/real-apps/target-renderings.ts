/**
 * The frameworks a pulled export is rendered in, called as the README tells an app to call them:
 * i18next with its defaults over `<lang>/translation.json`, `t(key, args)`; vue-i18n with the README's
 * pluralRules over `<lang>.json`, `t(key, args, args[plural argument])` (args a list for numbered
 * arguments `{0}`, which vue-i18n reads as list interpolations); the ARB files read as gen-l10n
 * reads them (the template's number formats included) and rendered by intl-messageformat.
 */
import { flutterKey } from '../../src/exports/flutter/flutter-key.js';
import { argumentsOf as messageArguments } from '../../src/messages/message-arguments.js';
import type { Message } from '../../src/messages/message.js';
import { pulledFiles, type Format } from './apps.js';
import type { Call } from './own-renderings.js';
import { i18nextOf, renderArb, vueT } from './runtimes.js';

/** What a framework renders for an entry (its path of group and entry names, its stored message in the language) and a call. */
export type TargetRendering = (path: readonly string[], message: Message, call: Call) => string;

/** The renderer of `target` over the files `tolk pull --format <target>` wrote into `out`, for `language`. */
export async function targetRendering(target: Format, out: string, language: string, baseLanguage: string): Promise<TargetRendering> {
  if (target === 'i18next') {
    const i18n = await i18nextOf(language, pulledFiles('i18next', out, language));
    return (path, _message, call) => i18n.t(path.join('.'), call.named as never) as unknown as string;
  }
  if (target === 'vue-i18n') {
    const t = vueT(pulledFiles('vue-i18n', out, language)['messages']!, language, true);
    return (path, message, call) => {
      // vue-i18n reads `{0}` as a list interpolation: a message with numbered arguments is called with a list, as vue-i18n apps do
      const indexes = [...messageArguments(message).keys()].filter((name) => /^\d+$/.test(name)).map(Number);
      const values = indexes.length > 0 ? Array.from({ length: Math.max(...indexes) + 1 }, (_, i) => call.named[String(i)]) : call.named;
      const plural = message.find((node) => node.kind === 'plural');
      return plural?.kind === 'plural' ? t(path.join('.'), values, call.named[plural.name]) : t(path.join('.'), values);
    };
  }
  const arb = pulledFiles('flutter', out, language)['arb']!;
  const template = pulledFiles('flutter', out, baseLanguage)['arb']!;
  return (path, _message, call) => {
    const key = flutterKey(path);
    const text = arb[key];
    if (typeof text !== 'string') return `(no ${key} in the ARB file)`;
    const placeholders = ((template[`@${key}`] as { placeholders?: Record<string, { format?: string }> } | undefined)?.placeholders) ?? {};
    const formatted = new Set(Object.entries(placeholders).filter(([, p]) => p.format !== undefined).map(([name]) => name));
    return renderArb(text, language, call.named, formatted);
  };
}
