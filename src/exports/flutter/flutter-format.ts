/**
 * `/export/flutter`: a .tar.gz of gen-l10n ARB files, `app_<lang>.arb` per language (plus the
 * fallback files gen-l10n insists on), each message printed in gen-l10n's syntax (printFlutter). The
 * base language's file is the template: it declares every placeholder any language uses and carries
 * each entry's contextInfo as its description.
 */
import { AppError, type ErrorDetail } from '../../errors.js';
import { printFlutter, type FlutterPlaceholder } from '../../messages/flutter/print-flutter.js';
import { storedMessage } from '../../messages/parse-message.js';
import { archiveWriter } from '../archive.js';
import type { ExportFormat, ExportOptions } from '../format.js';
import type { ProjectSnapshot } from '../snapshot.js';
import type { OutlineEntry } from '../tree.js';
import { arbFileName, arbText, fallbackLanguages } from './arb-file.js';
import { findKeyCollisions, flutterKey } from './flutter-key.js';
import type { ArbMessage } from './types.js';

/** How many problems an error lists: enough to fix a batch, not a megabyte of JSON. */
const MAX_DETAILS = 100;

/** The key of every entry in output order; refuses a composite key used twice or taken by the generated class. */
function keysOf(entries: readonly OutlineEntry[]): string[] {
  const collisions = findKeyCollisions(entries.map((item) => item.path));
  if (collisions.length > 0) {
    const details = collisions.slice(0, MAX_DETAILS).map((c) => ({ path: c.paths.join(' / '), message: c.message }));
    throw new AppError('ERR_EXPORT_KEY_COLLISION', `${collisions.length} Flutter key collision(s): ${collisions[0]!.message}`, details);
  }
  return entries.map((item) => flutterKey(item.path));
}

/** Texts without `{ } '` are plain in both syntaxes (and need no quoting even with escaping). */
const PLAIN = /^[^{}']*$/;

interface PrintedEntries {
  /** texts[language][entry index] in gen-l10n's syntax */
  texts: Map<string, string[]>;
  /** the placeholders of an entry (by index): the union over all languages */
  placeholders: Map<number, Map<string, FlutterPlaceholder>>;
}

/**
 * Every language's messages printed in gen-l10n's syntax; refuses the export (409) when one cannot be
 * written at all. An entry's placeholders are the union over its languages (num wins over String: a
 * plural needs a number, and a number prints; a format, once any language needs it, stays).
 */
function printEntries(snapshot: ProjectSnapshot, entries: readonly OutlineEntry[], options: ExportOptions): PrintedEntries {
  const texts = new Map<string, string[]>();
  const placeholders = new Map<number, Map<string, FlutterPlaceholder>>();
  const problems: ErrorDetail[] = [];
  for (const language of snapshot.languages) {
    const printed: string[] = [];
    for (let index = 0; index < entries.length; index += 1) {
      const item = entries[index]!;
      const text = snapshot.textOf(item.entry, language);
      if (PLAIN.test(text)) {
        printed.push(text);
        continue;
      }
      const message = printFlutter(storedMessage(text), language, { escaping: options.escaping });
      if (!message.ok) {
        problems.push({ path: `${language}:${item.path.join('.')}`, message: message.reason });
        printed.push('');
        continue;
      }
      printed.push(message.text);
      if (message.placeholders.length === 0) continue;
      const declared = placeholders.get(index) ?? new Map<string, FlutterPlaceholder>();
      for (const placeholder of message.placeholders) {
        const known = declared.get(placeholder.name);
        const format = placeholder.format ?? known?.format;
        declared.set(placeholder.name, { name: placeholder.name, type: known?.type === 'num' ? 'num' : placeholder.type, ...(format ? { format } : {}) });
      }
      placeholders.set(index, declared);
    }
    texts.set(language, printed);
  }
  if (problems.length > 0) {
    throw new AppError(
      'ERR_CONFLICT',
      `${problems.length} message(s) cannot be written in gen-l10n's syntax: first ${problems[0]!.path}: ${problems[0]!.message}`,
      problems.slice(0, MAX_DETAILS),
    );
  }
  return { texts, placeholders };
}

const NONE: readonly FlutterPlaceholder[] = [];

export const flutterFormat: ExportFormat = {
  id: 'flutter',
  contentType: 'application/gzip',
  isArchive: true,
  async prepare(snapshot, options) {
    const baseLanguage = snapshot.project.baseLanguage;
    const entries = snapshot.outline.entries;
    const keys = keysOf(entries);
    const { texts, placeholders } = printEntries(snapshot, entries, options);
    const fallbacks = fallbackLanguages(snapshot.languages);
    const messagesIn = (language: string): ArbMessage[] => {
      const printed = texts.get(language)!;
      return entries.map((item, index) => {
        const declared = placeholders.get(index);
        return { key: keys[index]!, text: printed[index]!, description: item.entry.contextInfo, placeholders: declared ? [...declared.values()] : NONE, kept: item.entry.arbMetadata };
      });
    };
    return async (out, pretty) => {
      const archive = archiveWriter(out, new Date(snapshot.project.updatedAt));
      for (const language of snapshot.languages) {
        const messages = messagesIn(language);
        await archive.add(arbFileName(language), arbText(language, messages, language === baseLanguage, pretty));
        for (const [bare, regional] of fallbacks) {
          if (regional === language) await archive.add(arbFileName(bare), arbText(bare, messages, false, pretty));
        }
      }
      await archive.finish();
    };
  },
};
