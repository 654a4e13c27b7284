import type { Context, MiddlewareHandler } from 'hono';
import type { ValidationTargets } from 'hono/types';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { AppError } from '../../core/errors';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * The request's body as JSON: BAD_REQUEST (400) when it is not sent as JSON or does not parse,
 * so a malformed body is the caller's error and never reaches the handler as an exception.
 */
export async function readJson(c: Context): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (!JSON_TYPE.test(type)) throw new AppError('BAD_REQUEST', 'The request body must be JSON.');
  return c.req.json().catch(() => {
    throw new AppError('BAD_REQUEST', 'The request body is not JSON.');
  });
}

/**
 * Route middleware: reads the JSON body and validates it with a (strict) schema from src/core
 * before the handler runs; the handler takes the result from `c.req.valid('json')`. Malformed
 * JSON answers 400 BAD_REQUEST, a body the schema refuses (unknown fields included) 422
 * VALIDATION_FAILED.
 */
export const jsonBody = <S extends z.ZodType>(schema: S) =>
  validator('json', async (_value, c): Promise<z.output<S>> => schema.parse(await readJson(c))) as Validated<'json', z.input<S>, z.output<S>>;

/**
 * A validating middleware as typed clients see it: they send the schema's input (query and path
 * values as text), the handler reads its output.
 */
type Validated<Target extends keyof ValidationTargets, In, Out> = MiddlewareHandler<any, string, { in: { [K in Target]: In }; out: { [K in Target]: Out } }>;

/**
 * Route middleware: validates the query string (one value a name, as `c.req.query()` reads it)
 * with a schema from src/core; the handler takes the result from `c.req.valid('query')`. A query
 * the schema refuses answers 422 VALIDATION_FAILED.
 */
export const queryParams = <S extends z.ZodType>(schema: S) =>
  validator('query', (_value, c): z.output<S> => schema.parse(c.req.query())) as Validated<'query', { [K in keyof z.input<S>]?: string }, z.output<S>>;

/**
 * Route middleware: validates the path's parameters with a schema from src/core; the handler
 * takes the result from `c.req.valid('param')`. A refusal answers 422 VALIDATION_FAILED, or with
 * `refusal` when given (an address that names nothing is usually a 404).
 */
export const pathParams = <S extends z.ZodType>(schema: S, refusal?: () => AppError) =>
  validator('param', (value): z.output<S> => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw refusal ? refusal() : parsed.error;
  }) as Validated<'param', { [K in keyof z.input<S>]: string }, z.output<S>>;

const JSON_NUL_ESCAPE = /(?<!\\)(?:\\\\)*\\u0000/;

/**
 * In front of the API: PostgreSQL text cannot hold a NUL character, so a request carrying one in
 * its address or in a JSON string is refused here with 400 BAD_REQUEST instead of failing in the
 * database. (A raw NUL inside JSON text is malformed JSON already.)
 */
export const refuseNul: MiddlewareHandler = async (c, next) => {
  if (/%00|\0/.test(c.req.url)) throw new AppError('BAD_REQUEST', 'The address holds a NUL character.');
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (c.req.raw.body && JSON_TYPE.test(type) && JSON_NUL_ESCAPE.test(await c.req.raw.clone().text())) {
    throw new AppError('BAD_REQUEST', 'The request holds a NUL character.');
  }
  await next();
};
