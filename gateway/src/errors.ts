/**
 * The closed set of error codes Hearth raises, each with its HTTP status. Services throw
 * `HearthError`; the one error middleware (http/middleware/errors.ts) maps it to a response
 * `{ "detail": message }` with the status from this table.
 */
export const errorCodes = {
  bad_request: { status: 400, description: 'The request cannot be understood.' },
  unauthorized: { status: 401, description: 'A valid X-API-Key header is required.' },
  forbidden: {
    status: 403,
    description: 'The request is not allowed (for example a foreign Origin).',
  },
  not_found: { status: 404, description: 'No such route or resource.' },
  conflict: { status: 409, description: 'The resource is in a state that forbids the request.' },
  payload_too_large: { status: 413, description: 'The request body exceeds the configured limit.' },
  validation: { status: 422, description: 'The request is well-formed but a field is invalid.' },
  internal: { status: 500, description: 'An unexpected error; details are in the log only.' },
  upstream: {
    status: 502,
    description: 'An upstream service (for example an LLM provider) failed.',
  },
  unavailable: { status: 503, description: 'A required part is not ready or not reachable.' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof errorCodes;

export class HearthError extends Error {
  readonly code: ErrorCode;
  /** Seconds after which a retry may succeed, sent as `Retry-After` (a part still starting). */
  readonly retryAfterSeconds?: number;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = 'HearthError';
    this.code = code;
    if (options?.retryAfterSeconds !== undefined)
      this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return errorCodes[this.code].status;
  }
}

export const notFound = (message: string): HearthError => new HearthError('not_found', message);
export const validationError = (message: string): HearthError =>
  new HearthError('validation', message);
export const unavailable = (message: string, cause?: unknown): HearthError =>
  new HearthError('unavailable', message, { cause });

export function isHearthError(error: unknown): error is HearthError {
  return error instanceof HearthError;
}
