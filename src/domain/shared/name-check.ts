/** The one check every write that names a group or an entry makes against its project's key style. */
import { validationError } from '../../errors.js';
import { nameProblem, type KeyStyle, type NameKind, type NamePlace } from '../../names/technical-names.js';

/** Refuses `name` with 400 ERR_VALIDATION at `field` unless it fits the project's key style. */
export function requireName(name: string, kind: NameKind, style: KeyStyle, place: NamePlace = {}, field = '/body/technicalName'): void {
  const problem = nameProblem(name, kind, style, place);
  if (problem) throw validationError(`the ${kind} name "${name}" ${problem} (the project's keyStyle is ${style})`, field);
}
