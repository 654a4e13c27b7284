/**
 * One HTTP call to a payment gateway, with a time limit: no answer, no answer in time, an HTTP
 * error or a body that is not JSON all become an AppError with the caller's failure code and a
 * `reason` (`unreachable`, `timeout`, `http`, `bad_reply`). What is sent and what a reply means
 * (signatures, field names, result codes) stays in each adapter.
 */
import { AppError, type ErrorCode } from '../../core/errors';

export interface GatewayCall {
  /** The gateway's name, as the error details give it. */
  gateway: string;
  /** The gateway's origin and base path, without a trailing slash. */
  baseUrl: string;
  path: string;
  /** The code thrown when there is no usable answer. */
  failure: ErrorCode;
  /** A call without a full answer in time counts as no answer. */
  timeoutMs: number;
}

function noAnswer(call: GatewayCall, err: unknown): AppError {
  const reason = err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'unreachable';
  // The network's own word for it (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…), for the logs: why a
  // gateway could not be reached is the first thing to know about it.
  const code = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  const why = reason === 'unreachable' && typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : '';
  return new AppError(call.failure, `${call.gateway} ${call.path}: ${reason}${why}`, { gateway: call.gateway, reason });
}

/** The AppError for an HTTP error status; `details` adds what the adapter read from the body. */
export function httpError(call: GatewayCall, status: number, details: Record<string, unknown> = {}): AppError {
  return new AppError(call.failure, `${call.gateway} ${call.path}: HTTP ${status}`, {
    gateway: call.gateway, reason: 'http', httpStatus: status, ...details,
  });
}

/** The AppError for a reply that is not what the protocol says (`detail` names what is wrong). */
export function badReply(call: GatewayCall, detail: string): AppError {
  return new AppError(call.failure, `${call.gateway} ${call.path}: ${detail}`, { gateway: call.gateway, reason: 'bad_reply' });
}

/** Makes the call and reads the whole body as text, whatever the HTTP status. */
export async function fetchText(call: GatewayCall, init: Omit<RequestInit, 'signal'>): Promise<{ response: Response; text: string }> {
  const signal = AbortSignal.timeout(call.timeoutMs);
  let response: Response;
  try {
    response = await fetch(`${call.baseUrl}${call.path}`, { ...init, signal });
  } catch (err) {
    throw noAnswer(call, err);
  }
  try {
    return { response, text: await response.text() };
  } catch (err) {
    throw noAnswer(call, err);
  }
}

/** POSTs a form and returns the parsed JSON body of a 2xx answer. */
export async function postFormForJson(call: GatewayCall, form: URLSearchParams): Promise<unknown> {
  const { response, text } = await fetchText(call, { method: 'POST', body: form });
  if (!response.ok) throw httpError(call, response.status);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badReply(call, 'reply is not JSON');
  }
}
