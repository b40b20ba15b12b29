/** The rules a project's languages follow. */
import { validationError } from '../../errors.js';
import { isKnownLocale, suggestLocale } from '../../locales/locale-catalog.js';

/** Throws 400 unless `tag` is a locale of GET /locales. */
export function checkLocale(tag: string, path: string): void {
  if (isKnownLocale(tag)) return;
  const suggestion = suggestLocale(tag);
  throw validationError(`"${tag}" is not a known locale${suggestion ? `; did you mean "${suggestion}"?` : ' (see GET /locales)'}`, path);
}

/** Known locales, no duplicates, and the base language not repeated among the translations. */
export function checkLanguages(baseLanguage: string, translationLanguages: readonly string[]): void {
  checkLocale(baseLanguage, '/body/baseLanguage');
  const seen = new Set<string>();
  translationLanguages.forEach((tag, index) => {
    const path = `/body/translationLanguages/${index}`;
    checkLocale(tag, path);
    if (tag === baseLanguage) throw validationError(`"${tag}" is the base language; it cannot also be a translation language`, path);
    if (seen.has(tag)) throw validationError(`"${tag}" is listed twice`, path);
    seen.add(tag);
  });
}
