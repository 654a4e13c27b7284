import type { ConsultationInput, ContactMessageInput } from '../../../core/contracts/support';
import { isErrorCode, type ErrorCode } from '../../../core/errors';

/** A refused request: the server's stable code, or NETWORK when nothing answered. */
export class SupportApiError extends Error {
  constructor(
    readonly code: ErrorCode | 'NETWORK',
    readonly status: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
  }
}

export async function request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new SupportApiError('NETWORK', 0);
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (data as { error?: { code?: unknown; details?: Record<string, unknown> } } | null)?.error;
    throw new SupportApiError(isErrorCode(error?.code) ? error.code : 'INTERNAL', res.status, error?.details);
  }
  return data as T;
}

export const sendConsultation = (input: ConsultationInput) => request<{ consultation: { id: string } }>('POST', '/api/consultations', input);
export const sendContactMessage = (input: ContactMessageInput) => request<{ ok: true }>('POST', '/api/contact', input);
