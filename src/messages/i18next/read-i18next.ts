/**
 * i18next's syntax read back into ICU messages, the printer's rules backwards: `{{x}}` (and the
 * unescaped `{{- x}}`) → `{x}`, `{{x, number}}` → `{x}` (`#` inside a plural on x), and the sibling keys
 * `key_<category>` (plus `key_zero`) → one plural on `count`. Nesting (`$t(…)`) has no ICU form and
 * stays literal text.
 */
import { isPluralCategory, type Message, type MessageCase, type MessageNode } from '../message.js';
import { pluralCategoriesOf } from '../plural-rules.js';
import { printIcu } from '../print-icu.js';

const INTERPOLATION = /\{\{-?\s*([A-Za-z0-9_]+)\s*(,\s*number\s*)?\}\}/g;

/** One i18next text as message nodes; inside a plural on `count`, `{{count, number}}` is its `#`. */
function readText(text: string, count: string | null): Message {
  const nodes: MessageNode[] = [];
  let last = 0;
  for (const match of text.matchAll(INTERPOLATION)) {
    if (match.index > last) nodes.push({ kind: 'text', value: text.slice(last, match.index) });
    const name = match[1]!;
    if (name === count && match[2]) nodes.push({ kind: 'pound' });
    // A formatted number outside a plural: ICU says it as a plural with `other` alone, whose `#` is formatted.
    else if (match[2]) nodes.push({ kind: 'plural', name, ordinal: false, cases: [{ key: 'other', message: [{ kind: 'pound' }] }] });
    else nodes.push({ kind: 'argument', name });
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push({ kind: 'text', value: text.slice(last) });
  return nodes;
}

/** The ICU message of one i18next text. */
export function readI18nextText(text: string): string {
  return printIcu(readText(text, null));
}

/** The plural suffix of an i18next key (`items_one` → `one`), or undefined. */
export function pluralSuffixOf(key: string): string | undefined {
  const match = /_(zero|one|two|few|many|other)$/.exec(key);
  return match ? match[1] : undefined;
}

/** The suffixes of a family in CLDR order, the one whose text `other` takes when `_other` is missing last. */
const FAMILY_ORDER = ['zero', 'one', 'two', 'few', 'many'] as const;

/**
 * The suffix whose text a family without `_other` (`year_one`, `year_few`, `year_many`) gives its
 * `other` case: the last category present in CLDR order (CONTRACT "More of what real files hold").
 */
export function standInForOther(suffixes: Iterable<string>): string | undefined {
  const present = new Set(suffixes);
  if (present.has('other')) return undefined;
  return FAMILY_ORDER.findLast((suffix) => present.has(suffix));
}

/**
 * One plural message on `count` from an entry's suffix keys (`one` → text, …) in `language`: `_zero` is
 * the language's zero category where it has one, else the `=0` case the export writes it for. A family
 * without `_other` takes its `other` from standInForOther (ICU needs an `other`). `bare`: the text of
 * the plain key beside the family (`count` beside `count_one`), which i18next falls back to for every
 * category the family lacks: it then fills those, `other` included.
 */
export function readI18nextPlural(given: ReadonlyMap<string, string>, language: string, bare?: string): string {
  const categories = pluralCategoriesOf(language);
  const standIn = bare === undefined ? standInForOther(given.keys()) : undefined;
  const forms = new Map(given);
  if (standIn) forms.set('other', given.get(standIn)!);
  if (bare !== undefined) for (const category of categories) if (!forms.has(category)) forms.set(category, bare);
  const hasZero = categories.includes('zero');
  const cases: MessageCase[] = [];
  const zero = forms.get('zero');
  if (zero !== undefined && !hasZero) cases.push({ key: '=0', message: readText(zero, 'count') });
  for (const [suffix, text] of forms) {
    if (suffix === 'zero' && !hasZero) continue;
    if (isPluralCategory(suffix)) cases.push({ key: suffix, message: readText(text, 'count') });
  }
  const order = ['=0', 'zero', 'one', 'two', 'few', 'many', 'other'];
  cases.sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  return printIcu([{ kind: 'plural', name: 'count', ordinal: false, cases }]);
}
