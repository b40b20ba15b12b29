/**
 * The export targets a message is printed for in their own syntax, and which of them can say a message
 * natively (CONTRACT, "Messages": what a target cannot say is written as its `other` branch and reported
 * by the checks as `not-native:<target>`).
 */
import type { Message } from './message.js';
import { printFlutter } from './flutter/print-flutter.js';
import { printI18next } from './i18next/print-i18next.js';
import { printVueI18n } from './vue-i18n/print-vue-i18n.js';

export const TARGETS = ['flutter', 'i18next', 'vue-i18n'] as const;
export type Target = (typeof TARGETS)[number];

/** The targets that cannot say `message` (in `language`) natively, in TARGETS order. */
export function notNativeTargets(message: Message, language: string): Target[] {
  const notNative: Target[] = [];
  if (!printFlutter(message, language, { escaping: false }).native) notNative.push('flutter');
  if (!printI18next(message, language).native) notNative.push('i18next');
  if (!printVueI18n(message, language).native) notNative.push('vue-i18n');
  return notNative;
}
