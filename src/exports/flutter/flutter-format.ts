/**
 * `/export/flutter`: a .tar.gz of gen-l10n ARB files, `app_<lang>.arb` per language (plus the
 * fallback files gen-l10n insists on). The base language's file is the template: it declares every
 * placeholder any language uses and carries each entry's contextInfo as its description.
 */
import { AppError, type ErrorDetail } from '../../errors.js';
import { archiveWriter } from '../archive.js';
import type { ExportFormat } from '../format.js';
import { jsonText } from '../output.js';
import type { LanguageContent, ProjectSnapshot } from '../snapshot.js';
import { forEachEntry } from '../tree.js';
import { arbDocument, arbFileName, fallbackLanguages } from './arb-file.js';
import { findKeyCollisions, flutterKey } from './flutter-key.js';
import { parseFlutterMessage } from './icu-message.js';
import type { ArbMessage, Placeholder } from './types.js';

/** How many problems an error lists: enough to fix a batch, not a megabyte of JSON. */
const MAX_DETAILS = 100;

/** Refuses keys gen-l10n cannot take: the same composite key twice, or a member of the generated class. */
function checkKeys(snapshot: ProjectSnapshot, base: LanguageContent): void {
  const paths: string[][] = [];
  forEachEntry(snapshot.roots, base, (path) => paths.push(path));
  const collisions = findKeyCollisions(paths);
  if (collisions.length === 0) return;
  const details = collisions.slice(0, MAX_DETAILS).map((c) => ({ path: c.paths.join(' / '), message: c.message }));
  throw new AppError('ERR_EXPORT_KEY_COLLISION', `${collisions.length} Flutter key collision(s): ${collisions[0]!.message}`, details);
}

/**
 * Keys must be usable (checked on the base language, which lists every entry), and every language's
 * messages must parse in gen-l10n's default syntax; the placeholders of a key are
 * the union over all languages (num wins over String: a plural needs a number, and a number prints).
 */
async function collectPlaceholders(snapshot: ProjectSnapshot): Promise<Map<string, Map<string, Placeholder>>> {
  const byKey = new Map<string, Map<string, Placeholder>>();
  const problems: ErrorDetail[] = [];
  for (const language of snapshot.languages) {
    const content = await snapshot.content(language);
    if (language === snapshot.project.baseLanguage) checkKeys(snapshot, content);
    forEachEntry(snapshot.roots, content, (path, entry) => {
      const check = parseFlutterMessage(entry.text);
      if (!check.ok) {
        problems.push({ path: `${language}:${path.join('.')}`, message: check.reason });
        return;
      }
      const key = flutterKey(path);
      const declared = byKey.get(key) ?? new Map<string, Placeholder>();
      for (const placeholder of check.placeholders) {
        if (declared.get(placeholder.name)?.type !== 'num') declared.set(placeholder.name, placeholder);
      }
      byKey.set(key, declared);
    });
  }
  if (problems.length > 0) {
    throw new AppError(
      'ERR_CONFLICT',
      `${problems.length} text(s) are not valid gen-l10n messages (braces must form {placeholder}, plural or select): first ${problems[0]!.path}: ${problems[0]!.message}`,
      problems.slice(0, MAX_DETAILS),
    );
  }
  return byKey;
}

function messagesOf(snapshot: ProjectSnapshot, content: LanguageContent, placeholders: Map<string, Map<string, Placeholder>>): ArbMessage[] {
  const messages: ArbMessage[] = [];
  forEachEntry(snapshot.roots, content, (path, entry) => {
    const key = flutterKey(path);
    messages.push({ key, text: entry.text, description: entry.contextInfo, placeholders: [...(placeholders.get(key)?.values() ?? [])] });
  });
  return messages;
}

export const flutterFormat: ExportFormat = {
  id: 'flutter',
  contentType: 'application/gzip',
  isArchive: true,
  async prepare(snapshot) {
    const baseLanguage = snapshot.project.baseLanguage;
    const placeholders = await collectPlaceholders(snapshot);
    const fallbacks = fallbackLanguages(snapshot.languages);
    return async (out, pretty) => {
      const archive = archiveWriter(out, new Date(snapshot.project.updatedAt));
      for (const language of snapshot.languages) {
        const messages = messagesOf(snapshot, await snapshot.content(language), placeholders);
        const isTemplate = language === baseLanguage;
        await archive.add(arbFileName(language), jsonText(arbDocument(language, messages, isTemplate), pretty));
        for (const [bare, regional] of fallbacks) {
          if (regional === language) await archive.add(arbFileName(bare), jsonText(arbDocument(bare, messages, false), pretty));
        }
      }
      await archive.finish();
    };
  },
};
