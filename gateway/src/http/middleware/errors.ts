import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { errorCodes, HearthError, isHearthError } from '../../errors.ts';

/** Unknown routes: 404 with a JSON detail. */
export function notFoundHandler(): RequestHandler {
  return function notFound(req, _res, next) {
    next(new HearthError('not_found', `Not found: ${req.method} ${req.path}`));
  };
}

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
}

/** Maps errors raised by Express's body parser to Hearth's error codes. */
function fromBodyParser(error: BodyParserError): HearthError | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return new HearthError(
        'payload_too_large',
        `Request body exceeds the limit of ${error.limit ?? '?'} bytes`,
      );
    case 'entity.parse.failed':
      return new HearthError('validation', 'Malformed JSON in request body');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HearthError('validation', 'Unsupported request body encoding');
    case 'request.aborted':
      return new HearthError('bad_request', 'Request aborted');
    default:
      return undefined;
  }
}

/**
 * The one error middleware: every failure becomes `{ "detail": message }` with the status of
 * its code (and `Retry-After` when the error says when to retry). Unexpected errors are logged with their stack and answered with a generic 500;
 * no stack trace ever reaches a response.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return function errorMiddleware(error: unknown, req, res, next) {
    if (res.headersSent) {
      next(error);
      return;
    }
    const mapped = isHearthError(error)
      ? error
      : (fromBodyParser(error as BodyParserError) ??
        new HearthError('internal', 'Internal server error'));
    if (mapped.code === 'internal')
      logger.error({ err: error, method: req.method, path: req.path }, 'request failed');
    else logger.debug({ code: mapped.code, path: req.path }, mapped.message);
    if (mapped.retryAfterSeconds !== undefined)
      res.set('Retry-After', String(mapped.retryAfterSeconds));
    res.status(errorCodes[mapped.code].status).json({ detail: mapped.message });
  };
}
