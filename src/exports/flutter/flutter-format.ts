/**
 * `/export/flutter`: a .tar.gz of gen-l10n ARB files, `app_<lang>.arb` per language (plus the
 * fallback files gen-l10n insists on), each message printed in gen-l10n's syntax (printFlutter). The
 * base language's file is the template: it declares every placeholder any language uses and carries
 * each entry's contextInfo as its description.
 */
import { AppError, type ErrorDetail } from '../../errors.js';
import { printFlutter, type FlutterPlaceholder } from '../../messages/flutter/print-flutter.js';
import { storedMessage } from '../../messages/parse-message.js';
import { archiveWriter, type ArchiveFile } from '../archive.js';
import { keptPrinting } from '../kept-printing.js';
import type { EntryTexts, ExportSource } from '../export-source.js';
import type { ExportFormat, ExportOptions } from '../format.js';
import { outlinePaths } from '../outline.js';
import { push } from '../output.js';
import type { Spool, SpoolSet } from '../spool.js';
import { arbEnd, arbFileName, arbHead, arbMessage, fallbackLanguages } from './arb-file.js';
import { findKeyCollisions, flutterKey } from './flutter-key.js';

/** How many problems an error lists: enough to fix a batch, not a megabyte of JSON. */
const MAX_DETAILS = 100;

/** Refuses a composite key used twice or taken by the generated class (409), before anything is read. */
function requireWritableKeys(source: ExportSource): void {
  const collisions = findKeyCollisions(outlinePaths(source.outline));
  if (collisions.length > 0) {
    const details = collisions.slice(0, MAX_DETAILS).map((c) => ({ path: c.paths.join(' / '), message: c.message }));
    throw new AppError('ERR_EXPORT_KEY_COLLISION', `${collisions.length} Flutter key collision(s): ${collisions[0]!.message}`, details);
  }
}

/** Texts without `{ } '` are plain in both syntaxes (and need no quoting even with escaping). */
const PLAIN = /^[^{}']*$/;

/** gen-l10n's printing of a text, kept (kept-printing.ts), one for each syntax. */
const printed = keptPrinting((text, language) => printFlutter(storedMessage(text), language, { escaping: false }));
const printedEscaping = keptPrinting((text, language) => printFlutter(storedMessage(text), language, { escaping: true }));

const NONE: readonly FlutterPlaceholder[] = [];

/** The messages of every language, written into one spool per ARB body (the file without its head). */
class ArbBodies {
  /** language → the body of its file; the template's has the `@key` metadata */
  readonly bodies: Map<string, Spool>;
  /** the base language's body without metadata, when a fallback file repeats the base language's texts */
  readonly plainBase: Spool | undefined;
  readonly problems: ErrorDetail[] = [];
  problemCount = 0;

  constructor(
    private readonly source: ExportSource,
    private readonly options: ExportOptions,
    spools: SpoolSet,
    needsPlainBase: boolean,
  ) {
    this.bodies = new Map(source.languages.map((language) => [language, spools.spool()]));
    this.plainBase = needsPlainBase ? spools.spool() : undefined;
  }

  open(): void {}
  close(): void {}

  /**
   * Prints the entry in every language first: its placeholders are the union over its languages
   * (num wins over String: a plural needs a number, and a number prints; a format, once any language
   * needs it, stays), and the template declares them all.
   */
  entry(entry: EntryTexts, path: readonly string[]): void {
    const { languages, project } = this.source;
    const texts: string[] = [];
    let declared: Map<string, FlutterPlaceholder> | undefined;
    for (const language of languages) {
      const text = this.source.textOf(entry, language);
      if (PLAIN.test(text)) {
        texts.push(text);
        continue;
      }
      const message = (this.options.escaping ? printedEscaping : printed)(text, language);
      if (!message.ok) {
        this.problemCount += 1;
        if (this.problems.length < MAX_DETAILS) this.problems.push({ path: `${language}:${path.join('.')}`, message: message.reason });
        texts.push('');
        continue;
      }
      texts.push(message.text);
      for (const placeholder of message.placeholders) {
        declared ??= new Map();
        const known = declared.get(placeholder.name);
        const format = placeholder.format ?? known?.format;
        declared.set(placeholder.name, { name: placeholder.name, type: known?.type === 'num' ? 'num' : placeholder.type, ...(format ? { format } : {}) });
      }
    }
    if (this.problemCount > 0) return; // the export is refused: nothing more to write
    const key = flutterKey(path);
    const placeholders = declared ? [...declared.values()] : NONE;
    const { pretty } = this.options;
    languages.forEach((language, index) => {
      const message = { key, text: texts[index]!, description: entry.contextInfo, placeholders, kept: entry.arbMetadata };
      this.bodies.get(language)!.write(arbMessage(message, language === project.baseLanguage, pretty));
      if (language === project.baseLanguage) this.plainBase?.write(arbMessage(message, false, pretty));
    });
  }

  async settle(): Promise<void> {
    for (const spool of this.bodies.values()) await spool.settle();
    await this.plainBase?.settle();
  }

  /** Refuses the export (409) when a message cannot be written in gen-l10n's syntax at all. */
  requireNoProblems(): void {
    if (this.problemCount === 0) return;
    const first = this.problems[0]!;
    throw new AppError('ERR_CONFLICT', `${this.problemCount} message(s) cannot be written in gen-l10n's syntax: first ${first.path}: ${first.message}`, this.problems);
  }
}

export const flutterFormat: ExportFormat = {
  id: 'flutter',
  contentType: 'application/gzip',
  isArchive: true,
  async prepare(source, options, spools) {
    requireWritableKeys(source);
    const { baseLanguage } = source.project;
    const fallbacks = fallbackLanguages(source.languages);
    const bodies = new ArbBodies(source, options, spools, [...fallbacks.values()].includes(baseLanguage));
    await source.walk(bodies);
    bodies.requireNoProblems();
    // Each file: its head, then a body (the fallback files repeat a regional language's, without metadata).
    const files: { tag: string; body: Spool }[] = [];
    for (const language of source.languages) {
      files.push({ tag: language, body: bodies.bodies.get(language)! });
      for (const [bare, regional] of fallbacks) {
        if (regional === language) files.push({ tag: bare, body: language === baseLanguage ? bodies.plainBase! : bodies.bodies.get(language)! });
      }
    }
    const { pretty } = options;
    const end = Buffer.from(arbEnd(pretty));
    const archiveFiles: ArchiveFile[] = [];
    for (const { tag, body } of files) {
      const head = Buffer.from(arbHead(tag, pretty));
      archiveFiles.push({
        name: arbFileName(tag),
        size: head.length + (await body.size()) + end.length,
        write: async (file) => {
          await push(file, head);
          await body.copyTo(file);
          await push(file, end);
        },
      });
    }
    return archiveWriter(new Date(source.project.updatedAt), archiveFiles);
  },
};
