/**
 * Nested JSON objects written as a stream of members: open an object, add members, close it. The
 * text is byte for byte what JSON.stringify(object, null, pretty ? 2 : 0) gives for the same
 * object, indented as if nested `depth` levels deep, without the object ever being built: a
 * 100,000-key object costs more to build than to print.
 */
import { quote } from './output.js';

export class NestedJsonWriter {
  /** members written so far in each open object, innermost last */
  readonly #members: number[] = [];

  constructor(
    private readonly write: (text: string) => void,
    private readonly pretty: boolean,
    private readonly depth = 0,
  ) {}

  /** Opens an object: the root (no name) or a member of the open one. */
  open(name?: string): void {
    this.write(name === undefined ? '{' : `${this.#key(name)}{`);
    this.#members.push(0);
  }

  /** Adds a member whose value is JSON text. */
  member(name: string, json: string): void {
    this.write(this.#key(name) + json);
  }

  /** Adds a string member. */
  text(name: string, value: string): void {
    this.member(name, quote(value));
  }

  close(): void {
    const members = this.#members.pop();
    if (members === undefined) throw new Error('no open object to close');
    this.write(members > 0 && this.pretty ? `\n${'  '.repeat(this.depth + this.#members.length)}}` : '}');
  }

  /** Whether an object is open (the root included). */
  get isOpen(): boolean {
    return this.#members.length > 0;
  }

  /** What comes before a member's value: a comma after an earlier member, the indentation, the name. */
  #key(name: string): string {
    const level = this.#members.length;
    if (level === 0) throw new Error('a member needs an open object');
    const separator = this.#members[level - 1]! > 0 ? ',' : '';
    this.#members[level - 1]! += 1;
    return this.pretty ? `${separator}\n${'  '.repeat(this.depth + level)}${quote(name)}: ` : `${separator}${quote(name)}:`;
  }
}
