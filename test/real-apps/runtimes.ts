/** The frameworks the real apps' messages are rendered in: real i18next, real vue-i18n 11, and ARB read as gen-l10n reads it, rendered by intl-messageformat. */
import i18next, { type i18n } from 'i18next';
import IntlMessageFormat from 'intl-messageformat';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { readArbMessage } from '../../src/messages/flutter/read-flutter.js';

const require = createRequire(import.meta.url);

/** An i18next instance over one language's resources (namespace → object); `options` as the app sets them, else i18next's defaults. */
export async function i18nextOf(language: string, resources: Record<string, Record<string, unknown>>, options: object = {}): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.init({ lng: language, resources: { [language]: resources }, ns: Object.keys(resources), defaultNS: 'translation', initAsync: false, ...options } as never);
  return instance;
}

/** The README's pluralRules function, taken from its code block (what tolk tells vue-i18n users to configure). */
export function readmePluralRule(): (locale: string) => (choice: number, choicesLength: number) => number {
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  const block = /```js\n\/\/ tolk-plural-rules\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no tolk-plural-rules block');
  return new Function(`${block[1]}; return tolkPluralRule;`)() as never;
}

/** vue-i18n 11's t over `messages`: an app's own setup (no pluralRules), or with the README's. */
export function vueT(messages: Record<string, unknown>, language: string, withReadmeRules: boolean): (key: string, ...args: unknown[]) => string {
  const { createI18n } = require('vue-i18n-11') as { createI18n: (options: object) => { global: { t: (...args: unknown[]) => string } } };
  const pluralRules = withReadmeRules ? { [language]: readmePluralRule()(language) } : undefined;
  const i18n = createI18n({ legacy: false, locale: language, messages: { [language]: messages }, pluralRules, missingWarn: false, fallbackWarn: false, warnHtmlMessage: false });
  return (key, ...args) => i18n.global.t(key, ...args);
}

/**
 * An ARB message as a Flutter app shows it: read with gen-l10n's meaning of its syntax and plural cases
 * in the language (`formatted`: the placeholders its template gives a number format), then rendered by
 * intl-messageformat (tags are text: gen-l10n has none).
 */
export function renderArb(text: string, language: string, args: Record<string, unknown>, formatted: ReadonlySet<string> = new Set()): string {
  return new IntlMessageFormat(readArbMessage(text, formatted, false, language), language, undefined, { ignoreTag: true }).format(args) as string;
}
