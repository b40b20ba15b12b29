/**
 * Refuses text no store can keep faithfully: NUL (PostgreSQL rejects it in text columns) and lone
 * UTF-16 surrogates (they would be stored as U+FFFD, silently changing the text).
 */
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../errors.js';

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The JSON-pointer path of the first unstorable string in `value`, if any. */
function findUnstorable(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], `${path}/${i}`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findUnstorable(key, `${path}/${key}`) ?? findUnstorable(item, `${path}/${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** Checks body, query and params of every request before schema validation. */
export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const path =
      findUnstorable(request.body, '/body') ?? findUnstorable(request.query, '/querystring') ?? findUnstorable(request.params, '/params');
    if (path) throw validationError('text must not contain NUL characters or unpaired UTF-16 surrogates', path);
  });
}
