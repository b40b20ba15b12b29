/**
 * vue-i18n linked messages inlined once the whole body is read (a link may point forward, or to a key
 * only the base language has). The first reading stored each text with its links as literal text; this
 * reads the texts that have links again, looking each linked key up in the texts as first read, so that
 * a link inside a linked message stays literal (one level deep, CONTRACT "Import"), and replaces them.
 */
import { parseMessage } from '../../messages/parse-message.js';
import { linkInliner, type LinkedMessage } from '../../messages/vue-i18n/inline-links.js';
import { readVueMessage } from '../../messages/vue-i18n/read-vue-i18n.js';
import { pathKey, warn, type ImportDocument } from '../import-document.js';
import { MAX_IMPORT_TEXT_LENGTH } from '../import-limits.js';
import type { TakeTurn } from '../turns.js';

/** A text read with links in it, waiting for the rest of the body. */
export interface LinkedText {
  readonly language: string;
  readonly path: readonly string[];
  /** the vue-i18n text as the file has it */
  readonly source: string;
}

/** A locale and its parents, as vue-i18n's locale chain walks them (`pt-BR`, `pt`), matched as the import matches tags. */
function withParents(tag: string): string[] {
  const parts = tag.replaceAll('_', '-').toLowerCase().split('-');
  return parts.map((_, index) => parts.slice(0, parts.length - index).join('-'));
}

/**
 * The body's languages vue-i18n looks a linked key up in, in order: the language and its parents, then
 * the fallback locale and its parents (tolk's exports fall back to the base language).
 */
function lookupChain(document: ImportDocument, language: string, baseLanguage: string): string[] {
  const tags = new Map([...document.texts.keys()].map((tag) => [withParents(tag)[0]!, tag]));
  return [...new Set([...withParents(language), ...withParents(baseLanguage)])].flatMap((tag) => tags.get(tag) ?? []);
}

/** Distinct notes a text's warnings name one by one; the rest are counted in one more. */
const NOTES_PER_TEXT = 10;

/** The notes of one text's links as warnings: each distinct one once (with how often), past NOTES_PER_TEXT counted. */
function warnOnce(document: ImportDocument, key: string, language: string, notes: ReadonlyMap<string, number>): void {
  const distinct = [...notes];
  for (const [note, times] of distinct.slice(0, NOTES_PER_TEXT)) warn(document, key, language, times > 1 ? `${note} (${times} times)` : note);
  const rest = distinct.slice(NOTES_PER_TEXT);
  if (rest.length === 0) return;
  const count = (kept: boolean) => rest.reduce((sum, [note, times]) => sum + (note.includes(' is kept as literal text') === kept ? times : 0), 0);
  warn(document, key, language, `and ${count(false) + count(true)} more links: ${count(false)} replaced by their linked messages' text, ${count(true)} kept as literal text`);
}

/** Replaces each linked text's links by the linked messages' texts (or keeps them, warning why either way). */
export async function inlineLinks(document: ImportDocument, linked: readonly LinkedText[], baseLanguage: string, turn: TakeTurn): Promise<void> {
  const withLinks = new Set(linked.map((text) => `${text.language}\u0000${pathKey(text.path)}`));
  const read = new Map<string, LinkedMessage | null>();
  const find = (language: string, key: string): LinkedMessage | undefined => {
    const path = pathKey(key.split('.'));
    const id = `${language}\u0000${path}`;
    let found = read.get(id);
    if (found === undefined) {
      const text = document.texts.get(language)?.get(path);
      const parsed = text === undefined ? undefined : parseMessage(text);
      found = parsed?.ok ? { message: parsed.message, language, ownLinks: withLinks.has(id), length: text!.length } : null;
      read.set(id, found);
    }
    return found ?? undefined;
  };
  const inlined: Array<{ readonly text: LinkedText; readonly message: string }> = [];
  for (const text of linked) {
    const pause = turn();
    if (pause) await pause;
    const chain = lookupChain(document, text.language, baseLanguage);
    const lookup = (key: string) => chain.reduce<LinkedMessage | undefined>((found, language) => found ?? find(language, key), undefined);
    const notes = new Map<string, number>();
    const inliner = linkInliner(text.language, lookup, (note) => notes.set(note, (notes.get(note) ?? 0) + 1), MAX_IMPORT_TEXT_LENGTH);
    inlined.push({ text, message: readVueMessage(text.source, text.language, inliner) });
    warnOnce(document, text.path.join('.'), text.language, notes);
  }
  // Written only now: every lookup above read the texts as first read, links literal.
  for (const { text, message } of inlined) document.texts.get(text.language)!.set(pathKey(text.path), message);
}
