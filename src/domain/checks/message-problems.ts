/**
 * The message problems of one project (CONTRACT, "Checks"), in the export's entry order, then the
 * project's language order, then check order:
 * - `placeholders` and `plural-forms` for every stored text: the base term (in the base language) and
 *   each stored translation (a translation's arguments against its base term's);
 * - `not-native:<format>` for every text an export writes, the fallbacks included: a missing
 *   translation is exported as the base term in that language, whose plurals that language may not fit.
 */
import { placeholderProblem, pluralFormsProblem } from '../../messages/message-checks.js';
import { parseMessage, storedMessage } from '../../messages/parse-message.js';
import type { Message } from '../../messages/message.js';
import { notNativeTargets } from '../../messages/targets.js';
import type { EntryTexts, ExportSource } from '../../exports/export-source.js';

export const CHECK_KINDS = ['placeholders', 'plural-forms', 'not-native:flutter', 'not-native:i18next', 'not-native:vue-i18n'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export interface MessageProblem {
  entryId: string;
  /** the dotted path of groups and the entry, as the json export nests it */
  key: string;
  language: string;
  check: CheckKind;
  message: string;
}

/** Without `{ } '` a text is plain: it has no argument or plural and every target says it. */
const PLAIN = /^[^{}']*$/;
const NO_ARGUMENTS: Message = [];

/** Every problem of the source's messages, in the order described above. */
export async function messageProblems(source: ExportSource): Promise<MessageProblem[]> {
  const problems: MessageProblem[] = [];
  const baseLanguage = source.project.baseLanguage;
  const check = (entry: EntryTexts, path: readonly string[]) => {
    const key = path.join('.');
    const baseTerm = PLAIN.test(entry.baseTerm) ? NO_ARGUMENTS : storedMessage(entry.baseTerm);
    for (const language of source.languages) {
      const isBase = language === baseLanguage;
      const stored = isBase ? entry.baseTerm : entry.translations[language];
      const text = stored ?? entry.baseTerm;
      const add = (check: CheckKind, message: string) => problems.push({ entryId: entry.id, key, language, check, message });
      if (stored !== undefined && !isBase && !PLAIN.test(stored) && !parseMessage(stored).ok) {
        add('placeholders', 'the translation is not an ICU message (stored before messages were checked); run tolk doctor');
        continue;
      }
      const message = PLAIN.test(text) ? NO_ARGUMENTS : storedMessage(text);
      if (stored !== undefined) {
        const placeholders = isBase ? undefined : placeholderProblem(message, baseTerm);
        if (placeholders) add('placeholders', placeholders);
        const forms = message === NO_ARGUMENTS ? undefined : pluralFormsProblem(message, language);
        if (forms) add('plural-forms', forms);
      }
      if (message === NO_ARGUMENTS) continue;
      const fallback = stored === undefined ? ' (the base term, exported as the fallback of this language)' : '';
      for (const target of notNativeTargets(message, language)) {
        add(`not-native:${target}`, `${target} cannot say this message natively; its export writes the other branch${fallback}`);
      }
    }
  };
  await source.walk({ open: () => {}, close: () => {}, entry: check });
  return problems;
}
