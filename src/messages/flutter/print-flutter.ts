/**
 * Messages in gen-l10n's ARB syntax (flutter_tools message_parser.dart, gen_l10n.dart), so that the
 * generated Dart renders what ICU renders:
 * - default syntax: text is literal up to a brace (`normalString = [^{}]+`), apostrophes included, and
 *   a literal brace cannot be written at all; `use-escaping: true` (`?escaping=true`) quotes it;
 * - gen-l10n has no `#`: it is written as the plural's placeholder, declared with `format: decimalPattern`
 *   so that Intl's NumberFormat writes the number in the language's format, as ICU writes `#`;
 * - plurals become Intl.pluralLogic calls, which try `zero`, `one`, `two` for exactly 0, 1, 2 before the
 *   locale's rule, and give a TWO count `two ?? few ?? other` (intl.dart, pluralLogic); whether that picks
 *   ICU's branch for every count is tried with choosesLikeIcu. `=3` and up and selectordinal do not exist.
 */
import { exactValue, type Message, type MessageCase, type PluralNode } from '../message.js';
import { argumentsOf } from '../message-arguments.js';
import { MessageIds } from '../message-identity.js';
import { KeptChoices } from '../plural-choice.js';
import { pluralCategoriesOf, pluralCategoryOf } from '../plural-rules.js';
import { otherBranch } from '../single-plural.js';
import { quoteForGenL10n } from './escaping.js';
import { isSelectCase, placeholderNameProblem } from './gen-l10n-names.js';

export interface FlutterPlaceholder {
  readonly name: string;
  readonly type: 'String' | 'num';
  readonly format?: string;
}

export type FlutterMessage =
  | { readonly ok: true; readonly text: string; readonly native: boolean; readonly placeholders: readonly FlutterPlaceholder[] }
  /** gen-l10n's syntax cannot carry the message at all (a literal brace without escaping): the export answers 409 */
  | { readonly ok: false; readonly native: false; readonly reason: string };

class Unsayable extends Error {}

/** The parameters of Intl.pluralLogic, each the ICU branch it should hold. */
type PluralParameters = Partial<Record<'zero' | 'one' | 'two' | 'few' | 'many', Message>> & { other: Message };
/** gen-l10n files `=0` under zero, `=1` under one, `=2` under two: each is written as the ICU case it came from. */
type ParameterKeys = Partial<Record<keyof PluralParameters, string>>;

/** The message in gen-l10n's syntax; what it cannot say natively is its `other` branch. */
export function printFlutter(message: Message, language: string, options: { escaping: boolean }): FlutterMessage {
  const uses = argumentsOf(message);
  for (const [name, how] of uses) {
    const problem = placeholderNameProblem(name);
    if (problem) return { ok: false, native: false, reason: `{${name}} cannot be a gen-l10n placeholder: ${problem}` };
    if (how.has('select') && (how.has('plural') || how.has('selectordinal'))) {
      return { ok: false, native: false, reason: `{${name}} is both a plural count and a select value; gen-l10n needs one type` };
    }
  }
  const printer = new FlutterPrinter(language, options.escaping);
  try {
    let native = true;
    let text: string;
    try {
      text = printer.print(message, null);
      // One placeholder, one format: a `#` (formatted) and a plain `{x}` of the same argument cannot both render as in ICU.
      if (printer.placeholders().some((p) => p.format !== undefined && uses.get(p.name)?.has('text'))) throw new Unsayable();
    } catch (error) {
      if (!(error instanceof Unsayable)) throw error;
      native = false;
      text = printer.printOther(message);
    }
    return { ok: true, text, native, placeholders: printer.placeholders() };
  } catch (error) {
    if (error instanceof LiteralBrace) return { ok: false, native: false, reason: error.message };
    throw error;
  }
}

class LiteralBrace extends Error {}

/** pluralLogic's parameters come from the plural's case keys and the language alone, so its choice can be kept by their shape. */
const keptChoices = new KeptChoices();

class FlutterPrinter {
  private readonly types = new Map<string, FlutterPlaceholder>();
  private readonly ids = new MessageIds();

  constructor(private readonly language: string, private readonly escaping: boolean) {}

  /** The placeholders the printed text uses, in order of first use. */
  placeholders(): FlutterPlaceholder[] {
    return [...this.types.values()];
  }

  print(message: Message, count: string | null): string {
    const out: string[] = [];
    this.write(message, count, out);
    // Joined once: joining at every level copied a nested plural's text once per level around it.
    return out.join('');
  }

  private write(message: Message, count: string | null, out: string[]): void {
    for (const node of message) {
      switch (node.kind) {
        case 'text':
          out.push(this.literal(node.value));
          break;
        case 'argument':
          out.push(this.placeholder(node.name, 'String'));
          break;
        case 'pound':
          out.push(this.placeholder(count!, 'num', 'decimalPattern'));
          break;
        case 'plural':
          if (node.ordinal) throw new Unsayable();
          this.writePlural(node, out);
          break;
        case 'select':
          if (!node.cases.every((c) => isSelectCase(c.key) || c.key === 'other')) throw new Unsayable();
          this.placeholder(node.name, 'String');
          out.push(`{${node.name}, select, `);
          node.cases.forEach((c, i) => {
            out.push(`${i > 0 ? ' ' : ''}${c.key}{`);
            this.write(c.message, null, out);
            out.push('}');
          });
          out.push('}');
          break;
      }
    }
  }

  /** The `other` branch of every plural and select, for a message gen-l10n cannot say. */
  printOther(message: Message): string {
    this.types.clear();
    let text = '';
    for (const node of otherBranch(message)) {
      if (node.kind === 'text') text += this.literal(node.value);
      else if (node.kind === 'argument') text += this.placeholder(node.name, 'String');
      else if (node.kind === 'count') text += this.placeholder(node.name, 'num', 'decimalPattern');
    }
    return text;
  }

  private writePlural(node: PluralNode, out: string[]): void {
    const keys: ParameterKeys = {};
    const parameters = pluralParameters(node.cases, this.language, keys);
    if (!parameters || !keptChoices.choosesLikeIcu(node, this.language, (count) => pluralLogic(parameters, this.language, count), this.ids)) throw new Unsayable();
    this.placeholder(node.name, 'num');
    out.push(`{${node.name}, plural, `);
    let first = true;
    for (const key of ['zero', 'one', 'two', 'few', 'many', 'other'] as const) {
      const branch = parameters[key];
      if (!branch) continue;
      out.push(`${first ? '' : ' '}${keys[key] ?? key}{`);
      this.write(branch, node.name, out);
      out.push('}');
      first = false;
    }
    out.push('}');
  }

  private placeholder(name: string, type: FlutterPlaceholder['type'], format?: string): string {
    const known = this.types.get(name);
    // num wins over String (a plural needs a number, and a number prints); a format, once asked for, stays.
    const merged: FlutterPlaceholder = {
      name,
      type: known?.type === 'num' || type === 'num' ? 'num' : 'String',
      ...((format ?? known?.format) ? { format: (format ?? known?.format)! } : {}),
    };
    this.types.set(name, merged);
    return `{${name}}`;
  }

  private literal(text: string): string {
    if (!this.escaping) {
      if (!/[{}]/.test(text)) return text;
      throw new LiteralBrace("a literal brace cannot be written in gen-l10n's default syntax; export with ?escaping=true (use-escaping: true in l10n.yaml)");
    }
    try {
      return quoteForGenL10n(text);
    } catch (error) {
      throw new LiteralBrace((error as Error).message);
    }
  }
}

/** pluralLogic's parameters for an ICU plural in `language`; undefined when a case has no parameter (`=3`…). */
function pluralParameters(cases: readonly MessageCase[], language: string, keys: ParameterKeys): PluralParameters | undefined {
  if (cases.some((c) => (exactValue(c.key) ?? 0) > 2)) return undefined;
  const used = new Set<string>(pluralCategoriesOf(language));
  const caseOf = (key: string) => cases.find((c) => c.key === key)?.message;
  // `=0` and a `zero` case share one parameter; a category the language never uses would fire at 0, 1 or 2 in gen-l10n only.
  const slot = (exact: string, category: 'zero' | 'one' | 'two') => {
    const exactCase = caseOf(exact);
    if (exactCase) keys[category] = exact;
    return exactCase ?? (used.has(category) ? caseOf(category) : undefined);
  };
  const parameters: PluralParameters = { other: caseOf('other')! };
  const zero = slot('=0', 'zero');
  const one = slot('=1', 'one');
  const two = slot('=2', 'two');
  const few = used.has('few') ? caseOf('few') : undefined;
  const many = used.has('many') ? caseOf('many') : undefined;
  if (zero) parameters.zero = zero;
  if (one) parameters.one = one;
  if (two) parameters.two = two;
  if (few) parameters.few = few;
  if (many) parameters.many = many;
  return parameters;
}

/** Intl.pluralLogic of Dart's intl package (pkgs/intl/lib/intl.dart), with ICU's CLDR rules for the locale's. */
function pluralLogic(parameters: PluralParameters, language: string, count: number): Message {
  if (count === 0 && parameters.zero) return parameters.zero;
  if (count === 1 && parameters.one) return parameters.one;
  if (count === 2 && parameters.two) return parameters.two;
  switch (pluralCategoryOf(language, count)) {
    case 'zero':
      return parameters.zero ?? parameters.other;
    case 'one':
      return parameters.one ?? parameters.other;
    case 'two':
      return parameters.two ?? parameters.few ?? parameters.other;
    case 'few':
      return parameters.few ?? parameters.other;
    case 'many':
      return parameters.many ?? parameters.other;
    default:
      return parameters.other;
  }
}
