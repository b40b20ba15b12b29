/**
 * The message problems of one project (CONTRACT, "Checks"), in the export's entry order, then the
 * project's language order, then check order:
 * - `placeholders` and `plural-forms` for every stored text: the base term (in the base language) and
 *   each stored translation (a translation's arguments against its base term's);
 * - `not-native:<format>` for every text an export writes, the fallbacks included: a missing
 *   translation is exported as the base term in that language, whose plurals that language may not fit.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
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
/** The longest the checks hold the event loop before letting other requests run. */
const SLICE_MS = 20;

/** Every problem of the source's messages, in the order described above; other requests run between slices of entries. */
export async function messageProblems(source: ExportSource): Promise<MessageProblem[]> {
  const problems: MessageProblem[] = [];
  const said = new Map<string, string>();
  // The walk hands over a batch of entries at a time; they are checked when it settles, where waiting is allowed.
  const pending: Array<{ entry: EntryTexts; key: string }> = [];
  const settle = async () => {
    let sliceStart = performance.now();
    for (const { entry, key } of pending) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
      checkEntry(source, entry, key, problems, said);
    }
    pending.length = 0;
  };
  await source.walk({ open: () => {}, close: () => {}, entry: (entry, path) => pending.push({ entry, key: path.join('.') }), settle });
  return problems;
}

/** One entry's problems in every language of the project, each text parsed once; `said` shares equal messages' strings. */
function checkEntry(source: ExportSource, entry: EntryTexts, key: string, problems: MessageProblem[], said: Map<string, string>): void {
  const baseLanguage = source.project.baseLanguage;
  const baseTerm = PLAIN.test(entry.baseTerm) ? NO_ARGUMENTS : storedMessage(entry.baseTerm);
  for (const language of source.languages) {
    const isBase = language === baseLanguage;
    const stored = isBase ? entry.baseTerm : entry.translations[language];
    const add = (check: CheckKind, text: string) => {
      let message = said.get(text);
      if (message === undefined) said.set(text, (message = text));
      problems.push({ entryId: entry.id, key, language, check, message });
    };
    let message = baseTerm;
    if (stored !== undefined && !isBase) {
      const parsed = PLAIN.test(stored) ? { ok: true as const, message: NO_ARGUMENTS } : parseMessage(stored);
      if (!parsed.ok) {
        add('placeholders', 'the translation is not an ICU message (stored before messages were checked); run tolk doctor');
        continue;
      }
      message = parsed.message.length === 0 ? NO_ARGUMENTS : parsed.message;
    }
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
}

/** About the memory `problems` hold: an object each, and each distinct string once (they are shared). */
export function problemsBytes(problems: readonly MessageProblem[]): number {
  const strings = new Set<string>();
  for (const problem of problems) {
    strings.add(problem.entryId).add(problem.key).add(problem.message);
  }
  let bytes = problems.length * 96;
  for (const text of strings) bytes += 32 + text.length * 2;
  return bytes;
}
