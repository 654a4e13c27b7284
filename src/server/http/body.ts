import type { Context, Env, MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { AppError } from '../../core/errors';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** BAD_REQUEST (400) unless the request says its body is JSON (any case, any parameters). */
function refuseUnlessJson(c: Context): void {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (!JSON_TYPE.test(type)) throw new AppError('BAD_REQUEST', 'The request body must be JSON.');
}

/**
 * The request's body as JSON: BAD_REQUEST (400) when it is not sent as JSON or does not parse,
 * so a malformed body is the caller's error and never reaches the handler as an exception.
 */
export async function readJson(c: Context): Promise<unknown> {
  refuseUnlessJson(c);
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
  validator('json', async (_value, c): Promise<z.output<S>> => schema.parse(await readJson(c))) as unknown as Validated<'json', S>;

/** A validating middleware as the typed client sees it: what the caller sends, what the handler gets. */
type Validated<T extends 'json' | 'query' | 'param', S extends z.ZodType, In = z.input<S>> = MiddlewareHandler<
  Env,
  string,
  { in: { [K in T]: In }; out: { [K in T]: z.output<S> } }
>;

/** Query and path values travel as text: the client sends each of the schema's fields as a string. */
type AsText<S extends z.ZodType, Optional extends boolean> = Optional extends true
  ? { [K in keyof z.input<S>]?: z.input<S>[K] extends string | string[] | undefined ? z.input<S>[K] : string }
  : { [K in keyof z.input<S>]: z.input<S>[K] extends string ? z.input<S>[K] : string };

/**
 * Route middleware: validates the query string with a (strict) schema from src/core before the
 * handler runs; the handler takes the result from `c.req.valid('query')`. A parameter given twice
 * arrives as a list. Refused (unknown parameters included) with 422 VALIDATION_FAILED.
 */
export const query = <S extends z.ZodType>(schema: S) =>
  validator('query', (value): z.output<S> => schema.parse(value)) as unknown as Validated<'query', S, AsText<S, true>>;

/**
 * Route middleware: validates the path parameters with a schema from src/core; the handler takes
 * the result from `c.req.valid('param')`. A path that no such resource can have answers the
 * route's own refusal (`refused`, e.g. ORDER_NOT_FOUND), as a lookup that found nothing would;
 * without one, 422 VALIDATION_FAILED.
 */
export const param = <S extends z.ZodType>(schema: S, refused?: () => AppError) =>
  validator('param', (value): z.output<S> => {
    if (!refused) return schema.parse(value);
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw refused();
    return parsed.data;
  }) as unknown as Validated<'param', S, AsText<S, false>>;

const JSON_NUL_ESCAPE = /(?<!\\)(?:\\\\)*\\u0000/;

/**
 * In front of the API: PostgreSQL text cannot hold a NUL character, so a request carrying one in
 * its address or in a JSON string is refused here with 400 BAD_REQUEST instead of failing in the
 * database. (A raw NUL inside JSON text is malformed JSON already.) The JSON is read through
 * `c.req`, which keeps the text for the handler's own reading (`readJson`); a handler that hands
 * the request on whole reads it through `readableRequest`.
 */
export const refuseNul: MiddlewareHandler = async (c, next) => {
  if (/%00|\0/.test(c.req.url)) throw new AppError('BAD_REQUEST', 'The address holds a NUL character.');
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && JSON_TYPE.test(type) && JSON_NUL_ESCAPE.test(await c.req.text().catch(() => ''))) {
    throw new AppError('BAD_REQUEST', 'The request holds a NUL character.');
  }
  await next();
};

/**
 * Declares the JSON body of a route whose body is checked further on with `schema` (better-auth's
 * account writes, checked in auth/auth.ts; answers that keep their own refusal codes), so the
 * typed client knows it. A body not sent as JSON is refused here as `jsonBody` refuses it (400
 * BAD_REQUEST): better-auth would read a form or multipart body too, while the handler's own
 * reading (the account a limit counts on) reads JSON only, so both must see the same JSON.
 * Reads nothing: the request reaches the handler untouched.
 */
export const declaredBody =
  <S extends z.ZodType>(_schema: S): MiddlewareHandler<Env, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> =>
  async (c, next) => {
    refuseUnlessJson(c);
    await next();
  };

/**
 * The request as it came, for a handler that hands it on whole (better-auth reads its body
 * itself): when its body was already read through `c.req` (`refuseNul`, `readJson`), `c.req.raw`
 * becomes the same request carrying that text again.
 */
export async function readableRequest(c: Context): Promise<Request> {
  const text = c.req.bodyCache.text;
  if (text && c.req.raw.bodyUsed) c.req.raw = new Request(c.req.raw, { body: await text });
  return c.req.raw;
}
