/** The language of a translation must be one of its project's translation languages. */
import { validationError } from '../../errors.js';
import type { ProjectRecord } from '../../store/repositories/projects.js';
import { checkLocale } from '../projects/languages.js';

/** Throws 400 unless `language` is a known locale and a translation language of the project. */
export function checkTranslationLanguage(project: ProjectRecord, language: string, path: string): void {
  checkLocale(language, path);
  if (project.translationLanguages.includes(language)) return;
  const reason =
    language === project.baseLanguage
      ? 'is the base language of this project (its text is the base term)'
      : 'is not a translation language of this project';
  const listed = project.translationLanguages.join(', ') || 'none';
  throw validationError(`"${language}" ${reason}; translation languages: ${listed}`, path);
}
