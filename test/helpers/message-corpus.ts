/**
 * A corpus of realistic app messages for the runtime tests: each family is one entry, its English base
 * term and a message per language (written for that language's plural categories where it has a plural).
 */
import { pluralCategoriesOf } from '../../src/messages/plural-rules.js';

export const CORPUS_LANGUAGES = ['de', 'fr', 'ru', 'pl', 'ar', 'ja', 'cy', 'lv'] as const;
export const BASE_LANGUAGE = 'en';
export const ALL_LANGUAGES = [BASE_LANGUAGE, ...CORPUS_LANGUAGES];

export interface MessageFamily {
  /** the entry's technical name */
  name: string;
  /** language → message (the base language's is the base term) */
  messages: Record<string, string>;
}

/** The same shape of message in every language, with a marker of the language so that mix-ups show. */
const everywhere = (name: string, make: (language: string) => string): MessageFamily => ({
  name,
  messages: Object.fromEntries(ALL_LANGUAGES.map((language) => [language, make(language)])),
});

/** A plural with exactly the categories `language` uses (what a translator writes). */
const fullPlural = (argument: string, language: string, form: (category: string) => string, exact = '') =>
  `{${argument}, plural, ${exact}${pluralCategoriesOf(language).map((category) => `${category} {${form(category)}}`).join(' ')}}`;

export const CORPUS: readonly MessageFamily[] = [
  everywhere('plainTitle', (l) => `Settings (${l})`),
  everywhere('apostropheText', (l) => `Don't stop, it's ${l}'s turn`),
  everywhere('quotedBraces', (l) => `Use '{'name'}' in templates (${l})`),
  everywhere('doubledQuote', (l) => `It''s ${l} — “quoted” ''single''`),
  everywhere('greeting', (l) => `Hello {name} (${l})!`),
  everywhere('twoArguments', (l) => `{sender} sent {file} to you [${l}]`),
  everywhere('argumentAtEdges', (l) => `{name}, ${l}, {name}`),
  everywhere('symbolsText', (l) => `Mail help@example.com | 100% \\ sure ${l}`),
  everywhere('hashOutside', (l) => `Ticket #{id} (${l})`),
  everywhere('fileCount', (l) => fullPlural('count', l, (c) => `# ${l}-${c} file`)),
  everywhere('zeroFiles', (l) => fullPlural('count', l, (c) => `# ${l}-${c} file`, `=0 {no files (${l})} `)),
  everywhere('cartSentence', (l) => `Your cart has ${fullPlural('count', l, (c) => `# ${c} item`)} in it (${l}).`),
  everywhere('namedPlural', (l) => fullPlural('count', l, (c) => `{name} has # ${c} (${l})`)),
  everywhere('otherOnly', (l) => `{count, plural, other {# things (${l})}}`),
  everywhere('otherArgument', (l) => fullPlural('n', l, (c) => `# ${c} (${l})`)),
  everywhere('zeroOnOther', (l) => fullPlural('n', l, (c) => `${c}: #`, `=0 {none ${l}} `)),
  everywhere('pluralApostrophe', (l) => fullPlural('count', l, (c) => `it's # ${c} '#' ${l}`)),
  everywhere('genderSelect', (l) => `{gender, select, female {She (${l})} male {He (${l})} other {They (${l})}}`),
  everywhere('selectPlural', (l) => `{gender, select, female {${fullPlural('count', l, (c) => `her # ${c}`)}} other {${fullPlural('count', l, (c) => `their # ${c}`)}}}`),
  everywhere('ordinalPlace', (l) => `{place, selectordinal, one {#st ${l}} two {#nd ${l}} few {#rd ${l}} other {#th ${l}}}`),
  everywhere('twoPlurals', (l) => `${fullPlural('count', l, (c) => `# ${c} file`)} in ${fullPlural('n', l, (c) => `# ${c} folder`)}`),
  everywhere('exactOne', (l) => `{count, plural, =1 {exactly one ${l}} other {# ${l}}}`),
  everywhere('exactFive', (l) => `{count, plural, =5 {five ${l}} other {# ${l}}}`),
  everywhere('unicodeText', (l) => `Ça va? 🎉 مرحبا 你好 e\u0301 ${l} {name}`),
  everywhere('spacesInForm', (l) => fullPlural('count', l, (c) => ` # ${c} `)),
  everywhere('emptyZero', (l) => `{count, plural, =0 {} other {# (${l})}}`),
  everywhere('angleText', (l) => `<b>{name}</b> & <i>${l}</i>`),
  everywhere('numberedArgs', (l) => `{count} of {total} (${l})`),
  everywhere('welcomeBack', (l) => `Welcome back, {name}! (${l})`),
  everywhere('itemsLeft', (l) => `Only ${fullPlural('count', l, (c) => `# ${c}`)} left — ${l}`),
  everywhere('deleteConfirm', (l) => `Delete {file}? This can't be undone (${l}).`),
  everywhere('messagesFrom', (l) => fullPlural('count', l, (c) => `# ${c} from {sender} (${l})`)),
  everywhere('progressText', (l) => `{count} of {total} downloaded ({id}%) ${l}`),
  everywhere('selectInPlural', (l) => `{count, plural, one {{gender, select, female {her #} other {their #}}} other {# items ${l}}}`),
  everywhere('ordinalOnly', (l) => `{place, selectordinal, other {#. ${l}}}`),
  {
    name: 'realFiles',
    messages: {
      en: '{count, plural, =0 {No files} one {One file} other {# files}}',
      de: '{count, plural, =0 {Keine Dateien} one {Eine Datei} other {# Dateien}}',
      fr: '{count, plural, =0 {Aucun fichier} one {# fichier} many {# de fichiers} other {# fichiers}}',
      ru: '{count, plural, =0 {Нет файлов} one {# файл} few {# файла} many {# файлов} other {# файла}}',
      pl: '{count, plural, =0 {Brak plików} one {# plik} few {# pliki} many {# plików} other {# pliku}}',
      ar: '{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}',
      ja: '{count, plural, other {#個のファイル}}',
      cy: '{count, plural, zero {Dim ffeiliau} one {Un ffeil} two {Dwy ffeil} few {# ffeil} many {# ffeil} other {# ffeil}}',
      lv: '{count, plural, zero {# failu} one {# fails} other {# faili}}',
    },
  },
  {
    name: 'latvianZero',
    messages: {
      en: '{count, plural, =0 {nothing} one {# thing} other {# things}}',
      de: '{count, plural, =0 {nichts} one {# Ding} other {# Dinge}}',
      fr: '{count, plural, =0 {rien} one {# chose} many {# de choses} other {# choses}}',
      ru: '{count, plural, =0 {ничего} one {# вещь} few {# вещи} many {# вещей} other {# вещи}}',
      pl: '{count, plural, =0 {nic} one {# rzecz} few {# rzeczy} many {# rzeczy} other {# rzeczy}}',
      ar: '{count, plural, =0 {لا شيء} zero {صفر} one {واحد} two {اثنان} few {#} many {#} other {#}}',
      ja: '{count, plural, =0 {なし} other {#個}}',
      cy: '{count, plural, =0 {dim} zero {sero} one {un} two {dau} few {#} many {#} other {#}}',
      lv: '{count, plural, =0 {nekā} zero {# nulle} one {# lieta} other {# lietas}}',
    },
  },
];

/** The arguments every message of the corpus is rendered with, for one count. */
export function argumentsFor(count: number): Record<string, string | number> {
  return { count, n: count, place: count, name: 'Ann', sender: 'Bo', file: 'a.txt', id: 42, gender: count % 2 === 0 ? 'female' : 'x', total: 7 };
}

export const COUNTS = [0, 1, 2, 3, 5, 11, 21, 100, 1.5];
