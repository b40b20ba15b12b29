/** Refuses text no store can keep faithfully (storable-text.ts) anywhere in a request's JSON. */
import type { FastifyInstance } from 'fastify';
import { isUnstorable, UNSTORABLE_MESSAGE } from '../../domain/shared/storable-text.js';
import { validationError } from '../../errors.js';

/**
 * Objects and arrays to walk: what the JSON parsers give, and the query's and route's parameter maps
 * (whose prototypes are the router's own, not Object's). An import's archive (a Buffer, or any other
 * view of bytes) is bytes, never text, and is not walked.
 */
const isJsonContainer = (value: unknown): value is object => typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);

/** Levels of a path a refusal names: past them it ends in `/…` (a 1 MiB body can nest 500,000 deep, a 1 MB path). */
const MAX_PATH_STEPS = 100;

/** Whether `root` holds an unstorable string or key: one pass, each tested once, no path kept (the common case). */
function holdsUnstorable(root: unknown): boolean {
  if (typeof root === 'string') return isUnstorable(root);
  const open: unknown[] = [root];
  // Strings are tested where they are found; only arrays and objects wait on the stack.
  const holds = (child: unknown) => {
    if (typeof child === 'string') return isUnstorable(child);
    if (typeof child === 'object' && child !== null) open.push(child);
    return false;
  };
  while (open.length > 0) {
    const value = open.pop();
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) if (holds(value[i])) return true;
    } else if (isJsonContainer(value)) {
      const keys = Object.keys(value);
      for (let i = 0; i < keys.length; i += 1) if (isUnstorable(keys[i]!) || holds((value as Record<string, unknown>)[keys[i]!])) return true;
    }
  }
  return false;
}

/**
 * The JSON-pointer path of the first unstorable string in `root`, if any. A first pass only looks
 * (holdsUnstorable); a second, made only when it found one, keeps the path as it walks: the arrays
 * and objects open above the current value, each with its keys (null for an array) and position.
 * Both are iterative, as a 1 MiB body can nest half a million levels deep, and linear: a 1 MiB body
 * costs milliseconds, where building a path string for every node cost 0.3–0.8 s.
 */
export function findUnstorable(root: unknown, rootPath: string): string | undefined {
  if (!holdsUnstorable(root)) return undefined;
  if (typeof root === 'string') return rootPath;
  const open: object[] = [];
  const keyLists: (string[] | null)[] = [];
  const positions: number[] = [];
  const enter = (value: object) => {
    open.push(value);
    keyLists.push(Array.isArray(value) ? null : Object.keys(value));
    positions.push(-1);
  };
  const path = () => {
    const steps: Array<string | number> = [];
    for (let level = 0; level < Math.min(positions.length, MAX_PATH_STEPS); level += 1) steps.push(keyLists[level]?.[positions[level]!] ?? positions[level]!);
    return `${rootPath}/${steps.join('/')}${positions.length > MAX_PATH_STEPS ? '/…' : ''}`;
  };
  enter(root as object);
  while (open.length > 0) {
    const top = open.length - 1;
    const keys = keyLists[top]!;
    const position = (positions[top]! += 1);
    if (position >= (keys ? keys.length : (open[top] as unknown[]).length)) {
      open.pop();
      keyLists.pop();
      positions.pop();
      continue;
    }
    if (keys && isUnstorable(keys[position]!)) return path();
    const child = keys ? (open[top] as Record<string, unknown>)[keys[position]!] : (open[top] as unknown[])[position];
    if (typeof child === 'string') {
      if (isUnstorable(child)) return path();
    } else if (isJsonContainer(child)) {
      enter(child);
    }
  }
  return undefined;
}

/**
 * Checks body, query and params of every request before schema validation (after authentication:
 * it is a preValidation hook). A body that is not JSON (an import's archive) is not walked.
 */
export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const path =
      findUnstorable(request.body, '/body') ?? findUnstorable(request.query, '/querystring') ?? findUnstorable(request.params, '/params');
    done(path ? validationError(UNSTORABLE_MESSAGE, path) : undefined);
  });
}
