/** The closed list of error codes and the one error type domain code throws. */
export type ErrorCode =
  | 'ERR_VALIDATION'
  | 'ERR_HIERARCHY_LIMIT'
  | 'ERR_UNAUTHORIZED'
  | 'ERR_FORBIDDEN'
  | 'ERR_PROJECT_NOT_FOUND'
  | 'ERR_SETTINGS_PROFILE_USER_NOT_FOUND'
  | 'ERR_NOT_FOUND'
  | 'ERR_CONFLICT'
  | 'ERR_EXPORT_KEY_COLLISION'
  | 'ERR_PRECONDITION_FAILED'
  | 'ERR_PAYLOAD_TOO_LARGE'
  | 'ERR_UNSUPPORTED_MEDIA_TYPE'
  | 'ERR_QUOTA_EXCEEDED'
  | 'ERR_INTERNAL'
  | 'ERR_UNAVAILABLE';

/** HTTP status of each code; the switch is exhaustive so a new code cannot go unmapped. */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'ERR_VALIDATION':
    case 'ERR_HIERARCHY_LIMIT':
      return 400;
    case 'ERR_UNAUTHORIZED':
      return 401;
    case 'ERR_FORBIDDEN':
      return 403;
    case 'ERR_PROJECT_NOT_FOUND':
    case 'ERR_SETTINGS_PROFILE_USER_NOT_FOUND':
    case 'ERR_NOT_FOUND':
      return 404;
    case 'ERR_CONFLICT':
    case 'ERR_EXPORT_KEY_COLLISION':
      return 409;
    case 'ERR_PRECONDITION_FAILED':
      return 412;
    case 'ERR_PAYLOAD_TOO_LARGE':
      return 413;
    case 'ERR_UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'ERR_QUOTA_EXCEEDED':
      return 429;
    case 'ERR_INTERNAL':
      return 500;
    case 'ERR_UNAVAILABLE':
      return 503;
  }
}

export interface ErrorDetail {
  path: string;
  message: string;
}

/** An expected failure with a contract code; anything else that is thrown becomes ERR_INTERNAL. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusOf(code);
  }
}

export const validationError = (message: string, path?: string) =>
  new AppError('ERR_VALIDATION', message, path ? [{ path, message }] : undefined);
export const notFound = (what: string) => new AppError('ERR_NOT_FOUND', `${what} not found`);
export const projectNotFound = () => new AppError('ERR_PROJECT_NOT_FOUND', 'project not found');
export const conflict = (message: string) => new AppError('ERR_CONFLICT', message);
export const forbidden = (message = 'your role on this project does not allow this') =>
  new AppError('ERR_FORBIDDEN', message);
