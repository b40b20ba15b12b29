/** The nesting limit of import JSON (MAX_IMPORT_NESTING): checked as the readers descend, or in one iterative pass. */
import { validationError } from '../errors.js';
import { MAX_IMPORT_NESTING } from './import-limits.js';

/** The 400 for a document nested past the limit; `where` names it (the body, or an archive member). */
export const tooDeep = (where: string) =>
  validationError(`${where} nests deeper than ${MAX_IMPORT_NESTING} levels of objects and arrays (the import nesting limit)`, '/body');

/** Whether `value` holds objects or arrays more than `levels` deep (a bare object is 1 deep). Iterative: it may be nested far past the call stack. */
export function deeperThan(value: unknown, levels: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > levels) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
