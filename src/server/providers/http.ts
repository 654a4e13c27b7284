import { z } from 'zod';
import Big from 'big.js';
import type { Pacer } from './pacing';
import { ProviderError } from './types';

export interface HttpReply {
  httpStatus: number;
  /** The parsed JSON body. */
  body: unknown;
  /** The reply's `Retry-After` header, when it has one. */
  retryAfter: string | null;
}

/**
 * One HTTP exchange with a provider. Transport failures become ProviderErrors here:
 * timeout and connection failure → `no_answer`; any 5xx → `unavailable`; 429 → `rate_limited`;
 * a body that is not JSON → `bad_reply` (or `refused` on a 4xx, where the provider clearly
 * answered no). A 4xx with a JSON body is returned so the protocol can read the provider's own
 * error from it.
 */
export async function requestJson(req: {
  url: string;
  method: 'GET' | 'POST';
  params: Record<string, string>;
  timeoutMs: number;
  /** Waits for the call's turn; told about a 429 so later calls wait too. */
  pacer?: Pacer;
}): Promise<HttpReply> {
  await req.pacer?.take();
  const form = new URLSearchParams(req.params);
  let target = req.url;
  const init: RequestInit = {
    method: req.method,
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(req.timeoutMs),
  };
  if (req.method === 'GET') {
    target += (target.includes('?') ? '&' : '?') + form.toString();
  } else {
    init.body = form;
  }

  let status: number;
  let text: string;
  let retryAfter: string | null = null;
  try {
    const res = await fetch(target, init);
    status = res.status;
    retryAfter = res.headers.get('retry-after');
    // The timeout signal also bounds reading the body.
    text = await res.text();
  } catch (e) {
    throw new ProviderError('no_answer', [describeFetchFailure(e, req.timeoutMs)], { cause: e });
  }

  if (status >= 500) throw new ProviderError('unavailable', [`HTTP ${status}`]);
  // A limiter in front of the panel turned the call away; whatever the body says, nothing was done.
  if (status === 429) throw rateLimited(['Too many requests'], retryAfter, req.pacer);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 120);
    if (status >= 400) throw new ProviderError('refused', [`HTTP ${status}`, snippet].filter(Boolean));
    throw new ProviderError('bad_reply', ['reply is not JSON'], { cause: e });
  }
  return { httpStatus: status, body, retryAfter };
}

/**
 * The provider's limiter turned a call away: the pacer holds later calls for its `Retry-After`
 * (1 s when it gives none), and the error says how long to wait.
 */
export function rateLimited(messages: string[], retryAfter: string | null, pacer?: Pacer): ProviderError {
  const wait = retryAfterMs(retryAfter);
  pacer?.hold(wait);
  return new ProviderError('rate_limited', messages, { retryAfterMs: wait });
}

/**
 * Words with which providers say our account there has not enough money, in any case:
 * "Not enough funds on balance" (PerfectPanel), "Insufficient balance", "Low balance",
 * "Your balance is not enough", "You don't have enough funds", …
 */
export const NO_FUNDS_WORDS =
  /not enough (funds|balance|money)|insufficient (funds|balance)|low balance|balance is (not enough|too low|insufficient)|(do not|don'?t|does not|doesn'?t) have enough (funds|balance|money)/i;

/** A provider's refusal in its own words: `no_funds` when they say the balance is short, else `refused`. */
export function refusal(messages: string[]): ProviderError {
  return new ProviderError(messages.some((m) => NO_FUNDS_WORDS.test(m)) ? 'no_funds' : 'refused', messages);
}

/** `Retry-After` in seconds or as a date → ms to wait; 1 s when missing or unreadable, at most 60 s. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return 1000;
  const seconds = Number(header.trim());
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(60_000, Math.max(100, ms)) : 1000;
}

function describeFetchFailure(e: unknown, timeoutMs: number): string {
  if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = e instanceof Error ? (e.cause as { code?: string } | undefined) : undefined;
  return cause?.code ? `connection failed (${cause.code})` : 'connection failed';
}

/** Parses a reply body with a schema; a mismatch is a `bad_reply`. */
export function parseReply<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ProviderError('bad_reply', [`unexpected ${what} reply`], { cause: parsed.error });
  }
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------
// Tolerant field parsers: providers send numbers as strings, booleans as 0/1, and nulls.

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** An integer sent as a number or a numeric string. */
export const looseInt = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z.coerce.number().pipe(z.number().int()),
);

/** An integer or nothing (`null`, `""` or missing become null). */
export const optionalInt = z.preprocess(
  (v) => blankToUndefined(typeof v === 'string' ? v.trim() : v),
  z.coerce.number().pipe(z.number().int()).optional(),
).transform((v) => v ?? null);

/** An id sent as a number or a string, kept as a string. */
export const looseId = z.union([z.string().min(1), z.number()]).transform(String);

/** A text that may be missing or null. */
export const optionalText = z.preprocess(blankToUndefined, z.coerce.string().optional()).transform(
  (v) => v ?? null,
);

/** true/false, 1/0, "1"/"0", "true"/"false", "yes"/"no"; missing is false. */
export const looseBool = z
  .unknown()
  .transform((v) => v === true || v === 1 || (typeof v === 'string' && /^(1|true|yes)$/i.test(v.trim())));

/**
 * A non-negative decimal amount sent as a number or a string, normalized to a plain decimal
 * string with at most 8 decimals (rounded up, so a price is never under-read).
 */
export const looseDecimal = z
  .union([z.string(), z.number()])
  .transform((v, ctx) => {
    const text = String(v).trim();
    if (!/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) {
      ctx.addIssue({ code: 'custom', message: 'not a decimal amount' });
      return z.NEVER;
    }
    return new Big(text).round(8, Big.roundUp).toFixed();
  });

/** Runs `fn` over `items` with at most `limit` calls at once, keeping the order of results. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Runs per-batch lookups and merges them. A batch that got no usable answer is left out of the
 * result; when none got an answer, the first error is thrown.
 */
export async function collectBatches<T>(
  batches: (() => Promise<Map<string, T>>)[],
  concurrency: number,
): Promise<Map<string, T>> {
  const merged = new Map<string, T>();
  if (batches.length === 0) return merged;
  let firstError: unknown;
  let answered = 0;
  await mapLimit(batches, concurrency, async (run) => {
    try {
      for (const [k, v] of await run()) merged.set(k, v);
      answered++;
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      firstError ??= e;
    }
  });
  if (answered === 0) throw firstError;
  return merged;
}

/** Lower-cased link without scheme, `www.` and trailing slashes, for loose comparison. */
export function normalizeLink(link: string): string {
  return link
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}

/** The items a reader makes sense of; an item it cannot read (null) is left out. */
export const keepKnown = <T>(items: unknown[], read: (item: unknown) => T | null): T[] =>
  items.flatMap((item) => {
    const known = read(item);
    return known ? [known] : [];
  });
