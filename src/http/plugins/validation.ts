/**
 * Request validation with two Ajv instances: query strings, params and headers are text, so they
 * are coerced ("20" → 20); JSON bodies are not, so `"limit": "20"` or `"name": 123` is a 400
 * rather than silently converted.
 */
import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

function build(options: Options) {
  const ajv = new Ajv.default({ removeAdditional: false, useDefaults: true, allErrors: false, strict: false, ...options });
  addFormats.default(ajv);
  return ajv;
}

/** Installs the validator compiler on the root instance. */
export function installValidation(app: FastifyInstance): void {
  const forText = build({ coerceTypes: 'array' });
  const forBody = build({ coerceTypes: false });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? forBody : forText).compile(schema as FastifySchema & object),
  );
}
