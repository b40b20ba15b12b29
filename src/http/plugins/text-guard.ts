/** Refuses text no store can keep faithfully (storable-text.ts) anywhere in a request. */
import type { FastifyInstance } from 'fastify';
import { UNSTORABLE, UNSTORABLE_MESSAGE } from '../../domain/shared/storable-text.js';
import { validationError } from '../../errors.js';

/**
 * The JSON-pointer path of the first unstorable string in `value`, if any. Iterative: a 1 MiB body
 * can nest half a million levels deep, far beyond the call stack.
 */
function findUnstorable(root: unknown, rootPath: string): string | undefined {
  const stack: Array<[unknown, string]> = [[root, rootPath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}/${i}`]);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value).reverse()) {
        if (UNSTORABLE.test(key)) return `${path}/${key}`;
        stack.push([item, `${path}/${key}`]);
      }
    }
  }
  return undefined;
}

/** Checks body, query and params of every request before schema validation. */
export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const path =
      findUnstorable(request.body, '/body') ?? findUnstorable(request.query, '/querystring') ?? findUnstorable(request.params, '/params');
    done(path ? validationError(UNSTORABLE_MESSAGE, path) : undefined);
  });
}
