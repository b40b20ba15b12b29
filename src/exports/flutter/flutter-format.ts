/**
 * `/export/flutter`: a .tar.gz of gen-l10n ARB files, `app_<lang>.arb` per language (plus the
 * fallback files gen-l10n insists on). The base language's file is the template: it declares every
 * placeholder any language uses and carries each entry's contextInfo as its description.
 */
import { AppError, type ErrorDetail } from '../../errors.js';
import { archiveWriter } from '../archive.js';
import type { ExportFormat } from '../format.js';
import type { ProjectSnapshot } from '../snapshot.js';
import type { OutlineEntry } from '../tree.js';
import { arbFileName, arbText, fallbackLanguages } from './arb-file.js';
import { findKeyCollisions, flutterKey } from './flutter-key.js';
import { parseFlutterMessage } from './icu-message.js';
import type { ArbMessage, Placeholder } from './types.js';

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

/**
 * Every language's messages must parse in gen-l10n's default syntax; the placeholders of an entry
 * (by position in `entries`) are the union over all languages (num wins over String: a plural needs
 * a number, and a number prints).
 */
function collectPlaceholders(snapshot: ProjectSnapshot, entries: readonly OutlineEntry[]): Map<number, Map<string, Placeholder>> {
  const byEntry = new Map<number, Map<string, Placeholder>>();
  const problems: ErrorDetail[] = [];
  for (const language of snapshot.languages) {
    for (let index = 0; index < entries.length; index += 1) {
      const item = entries[index]!;
      const check = parseFlutterMessage(snapshot.textOf(item.entry, language));
      if (!check.ok) {
        problems.push({ path: `${language}:${item.path.join('.')}`, message: check.reason });
        continue;
      }
      if (check.placeholders.length === 0) continue;
      const declared = byEntry.get(index) ?? new Map<string, Placeholder>();
      for (const placeholder of check.placeholders) {
        if (declared.get(placeholder.name)?.type !== 'num') declared.set(placeholder.name, placeholder);
      }
      byEntry.set(index, declared);
    }
  }
  if (problems.length > 0) {
    throw new AppError(
      'ERR_CONFLICT',
      `${problems.length} text(s) are not valid gen-l10n messages (braces must form {placeholder}, plural or select): first ${problems[0]!.path}: ${problems[0]!.message}`,
      problems.slice(0, MAX_DETAILS),
    );
  }
  return byEntry;
}

const NONE: readonly Placeholder[] = [];

export const flutterFormat: ExportFormat = {
  id: 'flutter',
  contentType: 'application/gzip',
  isArchive: true,
  async prepare(snapshot) {
    const baseLanguage = snapshot.project.baseLanguage;
    const entries = snapshot.outline.entries;
    const keys = keysOf(entries);
    const placeholders = collectPlaceholders(snapshot, entries);
    const fallbacks = fallbackLanguages(snapshot.languages);
    const messagesIn = (language: string): ArbMessage[] =>
      entries.map((item, index) => {
        const declared = placeholders.get(index);
        return { key: keys[index]!, text: snapshot.textOf(item.entry, language), description: item.entry.contextInfo, placeholders: declared ? [...declared.values()] : NONE };
      });
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
