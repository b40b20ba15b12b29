/**
 * Checks a text against gen-l10n's DEFAULT message syntax (no `use-escaping`, no `relax-syntax`), as
 * message_parser.dart and gen_l10n.dart implement it: text up to a brace is literal (apostrophes too),
 * `{name}`, `{n, plural, …}` and `{x, select, …}`. A text accepted here generates compiling Dart.
 *
 * Stricter than gen-l10n, each to keep its generated code compiling or a text from silently changing:
 * - a `}` closing nothing: gen-l10n's parser stops there and ignores the rest of the text, no error;
 * - placeholder names (see placeholderNameProblem);
 * - `{d, date, …}` / `{t, time, …}`: they need a DateTime argument, and our placeholders are String/num;
 * - two cases of one plural or select that gen-l10n files under one name (`one` twice, `=0` and `zero`):
 *   it keeps only one of them (with a warning for plurals), so a translated branch would vanish;
 * - select cases that are numbers (see isSelectCase);
 * - `= 1` (space after `=`) and non-ASCII whitespace inside braces, which ICU parsers reject.
 */
import { isSelectCase, placeholderNameProblem, pluralCategory } from './gen-l10n-names.js';
import type { MessageCheck, Placeholder } from './types.js';

type Use = 'text' | 'plural' | 'select';

class MessageError extends Error {}

/** Whether gen-l10n's default syntax accepts `text`, and the placeholders the template must declare (first-use order). */
export function parseFlutterMessage(text: string): MessageCheck {
  // Without braces every character is literal text: the common case, answered without a parser.
  if (!text.includes('{') && !text.includes('}')) return { ok: true, placeholders: [] };
  const parser = new MessageParser(text);
  try {
    parser.message(null);
  } catch (error) {
    if (error instanceof MessageError) return { ok: false, reason: error.message };
    throw error;
  }
  const placeholders = [...parser.uses].map(([name, uses]): Placeholder => ({ name, type: uses.has('plural') ? 'num' : 'String' }));
  return { ok: true, placeholders };
}

class MessageParser {
  readonly uses = new Map<string, Set<Use>>();
  private readonly opened: number[] = []; // the '{' of each argument being read, innermost last
  private i = 0;

  constructor(private readonly text: string) {}

  /** Literal text and arguments up to the `}` closing `openedAt` (left unconsumed), or to the end at top level. */
  message(openedAt: number | null): void {
    for (;;) {
      this.take(/[^{}]*/y);
      if (this.i >= this.text.length) return openedAt === null ? undefined : this.fail(`the '{' at ${this.at(openedAt)} is never closed`);
      if (this.text[this.i] === '}') {
        if (openedAt !== null) return;
        this.fail(`the '}' at ${this.at(this.i)} closes no '{' (the default syntax has no literal braces)`);
      }
      this.opened.push(this.i);
      this.argument(this.i++);
      this.opened.pop();
    }
  }

  private argument(open: number): void {
    this.space();
    const nameAt = this.i;
    const name = this.take(/[A-Za-z0-9_]*/y);
    if (name === '') this.unexpected('a placeholder name');
    const problem = placeholderNameProblem(name);
    if (problem) this.fail(`"${name}" at ${this.at(nameAt)} cannot be a placeholder: ${problem}`);
    this.space();
    if (this.eat('}')) return this.use(name, 'text', open);
    if (!this.eat(',')) this.unexpected(`'}' or ',' after "${name}"`);
    this.space();
    const typeAt = this.i;
    const type = this.take(/[A-Za-z0-9_]*/y);
    if (type === 'plural' || type === 'select') {
      this.space();
      if (!this.eat(',')) this.unexpected(`',' after "${type}"`);
      this.use(name, type, open); // before the cases, so placeholders list in order of first appearance
      return this.cases(type, open);
    }
    if (type === 'date' || type === 'time') this.fail(`"${type}" at ${this.at(typeAt)} needs a DateTime placeholder; texts have only String and num`);
    if (type === '') this.unexpected("'plural' or 'select'");
    this.fail(`unknown argument type "${type}" at ${this.at(typeAt)}: gen-l10n knows only plural and select`);
  }

  private cases(kind: 'plural' | 'select', open: number): void {
    const seen = new Map<string, string>(); // the name gen-l10n files a case under → the case as written
    for (;;) {
      this.space();
      if (this.eat('}')) break;
      const at = this.i;
      const label = this.take(kind === 'plural' ? /=[0-9]*|[A-Za-z0-9_]*/y : /[A-Za-z0-9_]*/y);
      if (label === '') this.unexpected(`a ${kind} case or '}'`);
      const filedAs = kind === 'plural' ? pluralCategory(label) : isSelectCase(label) ? label : undefined;
      if (filedAs === undefined) {
        this.fail(kind === 'plural'
          ? `"${label}" at ${this.at(at)} is not a plural case gen-l10n knows: zero, one, two, few, many, other, =0, =1, =2`
          : `"${label}" at ${this.at(at)} cannot be a select case`);
      }
      const earlier = seen.get(filedAs);
      if (earlier !== undefined) this.fail(`the ${kind} case "${label}" at ${this.at(at)} repeats "${earlier}"`);
      seen.set(filedAs, label);
      this.space();
      if (!this.eat('{')) this.unexpected(`'{' after the ${kind} case "${label}"`);
      this.message(this.i - 1);
      this.i++; // message() stopped on this case's closing '}'
    }
    if (!seen.has('other')) this.fail(`the ${kind} at ${this.at(open)} has no "other" case, which gen-l10n requires`);
  }

  private use(name: string, use: Use, open: number): void {
    const uses = this.uses.get(name) ?? new Set<Use>();
    if ((use === 'plural' && uses.has('select')) || (use === 'select' && uses.has('plural'))) {
      this.fail(`"${name}" at ${this.at(open)} is used both as a plural count and as a select value; gen-l10n needs one type`);
    }
    this.uses.set(name, uses.add(use));
  }

  /** Consumes what the sticky `pattern` matches at the cursor. */
  private take(pattern: RegExp): string {
    pattern.lastIndex = this.i;
    const taken = pattern.exec(this.text)?.[0] ?? '';
    this.i += taken.length;
    return taken;
  }

  // ASCII only: gen-l10n also skips Unicode spaces (Dart's \s), but ICU parsers don't, and a no-break
  // space inside braces is almost always a paste accident.
  private space(): void { this.take(/[ \t\n\r\f\v]*/y); }

  private eat(char: string): boolean {
    if (this.text[this.i] !== char) return false;
    this.i++;
    return true;
  }

  private unexpected(expected: string): never {
    const code = this.text.codePointAt(this.i);
    // Only arguments expect anything, so running out of text means the innermost one is unclosed.
    if (code === undefined) return this.fail(`the '{' at ${this.at(this.opened.at(-1) ?? 0)} is never closed`);
    const char = String.fromCodePoint(code);
    // Spaces and invisible marks (RLM, no-break space) are named by code point, or the reason would show nothing.
    const found = /[\p{L}\p{N}\p{P}\p{S}]/u.test(char) ? `'${char}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    return this.fail(`expected ${expected} at ${this.at(this.i)}, found ${found}`);
  }

  /** Positions count characters (code points) from 1, as a translator counts them. */
  private at(index: number): string {
    return `character ${[...this.text.slice(0, index)].length + 1}`;
  }

  private fail(reason: string): never { throw new MessageError(reason); }
}
