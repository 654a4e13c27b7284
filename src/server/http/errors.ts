import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ZodError } from 'zod';
import { AppError, ERROR_CODES, type ErrorBody, type ErrorCode } from '../../core/errors';
import type { Logger } from '../logger';

export function errorBody(code: ErrorCode, message: string, details?: Record<string, unknown>): ErrorBody {
  return { error: details ? { code, message, details } : { code, message } };
}

/**
 * The central error handler: AppError and validation failures answer with their stable code;
 * anything else is logged and answered with a generic message — never a stack trace.
 */
export function handleError(logger: Logger) {
  return (err: Error, c: Context) => {
    if (err instanceof AppError) {
      return c.json(errorBody(err.code, err.message, err.details), err.status as 400);
    }
    if (err instanceof ZodError) {
      const issues = err.issues.slice(0, 20).map((i) => ({ path: i.path.map(String).join('.'), code: i.code }));
      return c.json(errorBody('VALIDATION_FAILED', 'The request is not valid.', { issues }), 422);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const code: ErrorCode =
        status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN' : status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST';
      return c.json(errorBody(code, code === 'BAD_REQUEST' ? 'The request is not valid.' : code), ERROR_CODES[code] as 400);
    }
    logger.error({ err, method: c.req.method, path: c.req.path }, 'unhandled error');
    return c.json(errorBody('INTERNAL', 'Something went wrong. Please try again.'), 500);
  };
}
