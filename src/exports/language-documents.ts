/**
 * The JSON documents of an export, one per language (or, split at the top level, one per language and
 * top-level group: i18next's namespaces), written into spools along one walk of the outline: nested
 * (group names → … → entry name → text, empty groups as {}) or flat (one key per entry's path).
 */
import type { Writable } from 'node:stream';
import type { EntryTexts, OutlineVisitor } from './export-source.js';
import type { ExportWriter } from './format.js';
import { NestedJsonWriter } from './nested-json.js';
import { writeLanguageObject } from './output.js';
import type { Spool, SpoolSet } from './spool.js';

/** What an entry writes: one text, or several keys (`name` + suffix → text, e.g. i18next's plural forms). */
export type EntryValue = string | ReadonlyArray<readonly [suffix: string, text: string]>;

/** A document's bytes: a range of its language's spool. */
export interface DocumentRange {
  spool: Spool;
  start: number;
  end: number;
}

interface LanguageDocument {
  language: string;
  spool: Spool;
  json: NestedJsonWriter;
  /** the start of the document being written */
  start: number;
}

export interface DocumentLayout {
  /** a document per top-level group instead of one per language (there must be no top-level entries) */
  splitTopLevel?: boolean;
  /** one flat object: each entry under this key of its path, groups no level of their own */
  flatKey?: (path: readonly string[]) => string;
}

export class LanguageDocuments implements OutlineVisitor {
  readonly #documents: LanguageDocument[];
  /** each top-level group's name and its document in every language (when split at the top level) */
  readonly #split: { name: string; ranges: DocumentRange[] }[] = [];
  #depth = 0;

  readonly #splitTopLevel: boolean;
  readonly #flatKey: ((path: readonly string[]) => string) | undefined;

  /** @param depth how deep each document is nested in the final output (its indentation) */
  constructor(
    languages: readonly string[],
    spools: SpoolSet,
    pretty: boolean,
    depth: number,
    private readonly valueOf: (entry: EntryTexts, language: string) => EntryValue,
    { splitTopLevel = false, flatKey }: DocumentLayout = {},
  ) {
    this.#splitTopLevel = splitTopLevel;
    this.#flatKey = flatKey;
    this.#documents = languages.map((language) => {
      const spool = spools.spool();
      return { language, spool, json: new NestedJsonWriter((text) => spool.write(text), pretty, depth), start: 0 };
    });
    if (!splitTopLevel) for (const document of this.#documents) document.json.open();
  }

  open(name: string): void {
    if (this.#flatKey) return;
    const starting = this.#splitTopLevel && this.#depth === 0;
    this.#depth += 1;
    for (const document of this.#documents) {
      if (starting) document.start = document.spool.offset();
      document.json.open(starting ? undefined : name);
    }
    if (starting) this.#split.push({ name, ranges: [] });
  }

  close(): void {
    if (this.#flatKey) return;
    this.#depth -= 1;
    const ending = this.#splitTopLevel && this.#depth === 0;
    for (const document of this.#documents) {
      document.json.close();
      if (ending) this.#split.at(-1)!.ranges.push({ spool: document.spool, start: document.start, end: document.spool.offset() });
    }
  }

  entry(entry: EntryTexts, path: readonly string[]): void {
    const name = this.#flatKey ? this.#flatKey(path) : path.at(-1)!;
    for (const { language, json } of this.#documents) {
      const value = this.valueOf(entry, language);
      if (typeof value === 'string') json.text(name, value);
      else for (const [suffix, form] of value) json.text(name + suffix, form);
    }
  }

  async settle(): Promise<void> {
    for (const document of this.#documents) await document.spool.settle();
  }

  /** After the walk: each language's whole document. */
  async finish(): Promise<DocumentRange[]> {
    const ranges: DocumentRange[] = [];
    for (const document of this.#documents) {
      if (!this.#splitTopLevel) document.json.close();
      ranges.push({ spool: document.spool, start: 0, end: await document.spool.size() });
    }
    return ranges;
  }

  /** After the walk, when split: each top-level group's name and its document per language (in the languages' order). */
  namespaces(): readonly { name: string; ranges: readonly DocumentRange[] }[] {
    return this.#split;
  }
}

/** Writes a document's bytes into `out`. */
export const copyDocument = (out: Writable, { spool, start, end }: DocumentRange): Promise<void> => spool.copyTo(out, start, end);

/**
 * Writes `{"<lang>": <document>, …}` from each language's document. Made out here, not in a format's
 * prepare(): a closure there shares its scope with the walk's, and would keep the export's outline
 * (~20 MB for 100,000 entries) alive for as long as a client takes to download.
 */
export function languageObjectWriter(languages: readonly string[], pretty: boolean, ranges: readonly DocumentRange[]): ExportWriter {
  return (out) => writeLanguageObject(out, languages, pretty, (index) => copyDocument(out, ranges[index]!));
}
