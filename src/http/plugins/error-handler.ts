/** One error body for every failure: AppError, validation, Fastify's own 4xx, and anything unexpected. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, statusOf, type ErrorCode, type ErrorDetail } from '../../errors.js';

function send(reply: FastifyReply, code: ErrorCode, message: string, details?: ErrorDetail[], headers?: Record<string, string>) {
  const statusCode = statusOf(code);
  if (headers) reply.headers(headers);
  return reply.code(statusCode).send({ statusCode, code, message, ...(details ? { details } : {}) });
}

/** Ajv's errors as contract details: the path names the request part and the offending field. */
function validationDetails(error: FastifyError): ErrorDetail[] {
  const part = error.validationContext ?? 'body';
  return (error.validation ?? []).map((issue) => {
    const params = issue.params as Record<string, unknown>;
    const field = params.missingProperty ?? params.additionalProperty;
    const path = `/${part}${issue.instancePath}${field ? `/${String(field)}` : ''}`;
    const message = params.additionalProperty ? 'is not a known field' : (issue.message ?? 'is invalid');
    return { path, message };
  });
}

/** Fastify's own client errors (body parsing, media type, size) mapped to contract codes. */
function codeForFastifyError(error: FastifyError): ErrorCode | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'ERR_PAYLOAD_TOO_LARGE';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'ERR_UNSUPPORTED_MEDIA_TYPE';
    default:
      return error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? 'ERR_VALIDATION' : undefined;
  }
}

/** What an error message shows of a request's own text at most: never a whole URL, header or body. */
const MAX_PATH_SHOWN = 100;
const MAX_MESSAGE_LENGTH = 300;

const excerpt = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

/** Installs the error and not-found handlers on the root instance. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) return send(reply, error.code, error.message, error.details, error.headers);
    if (error.validation) {
      const details = validationDetails(error);
      const first = details[0];
      return send(reply, 'ERR_VALIDATION', first ? `${first.path} ${first.message}` : 'invalid request', details);
    }
    const code = codeForFastifyError(error);
    if (code) return send(reply, code, excerpt(error.message, MAX_MESSAGE_LENGTH));
    request.log.error({ err: error }, 'unexpected error');
    return send(reply, 'ERR_INTERNAL', 'internal error; the server log has the details');
  });
  app.setNotFoundHandler((request, reply) => send(reply, 'ERR_NOT_FOUND', `no route ${request.method} ${excerpt(request.url.split('?')[0]!, MAX_PATH_SHOWN)}`));
}
